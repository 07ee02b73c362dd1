package io.flushcheck.powercut;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Data at rest that changes on the drive ({@link SimulatedDisk#corrupt}): bit rot, one bit of synced data flipped,
 * or zeroed sectors, bytes that read as zeros. Placed on {@code length} bytes from {@code offset} of a file, or of
 * the block model's drive itself ({@code file} null). Bit rot flips one bit of one byte of the range, both picked
 * by {@code seed}, so the same fault on the same file flips the same bit every time; zeroing zeros the whole range.
 * The range is cut to the file's size: a fault changes bytes the file has.
 *
 * <p>The change is made where the bytes lie on the drive, under the filesystem, as a disk's decayed media would
 * make it, so each filesystem answers as its own: ext4 and xfs return the changed bytes, btrfs's data checksums
 * turn the mismatch into EIO. It is made with the power on (the file synced first: the fault is on synced data),
 * or on what survived a cut, the program reading its files after the reboot ({@link SimulatedDisk#corrupt} says how).
 *
 * <pre>{@code
 * Corruption c = disk.corrupt(DataFault.bitRot(disk.path().resolve("journal")).range(4096, 4096).seed(7));
 * // c.toString(): "bit 3 of byte 5000 of journal flipped (drive byte 1052552)"
 * }</pre>
 *
 * @param file   the file whose bytes change, or null for the drive's own bytes (block model)
 * @param offset the first byte of the range
 * @param length how many bytes from it; {@link Long#MAX_VALUE} for the rest of the file
 * @param kind   what happens to the bytes
 * @param seed   what picks the byte and the bit of bit rot
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record DataFault(Path file, long offset, long length, Kind kind, long seed) {

    /** What happens to the bytes. */
    public enum Kind {
        /** One bit of one byte of the range, both picked by the seed, flips. */
        BIT_ROT,
        /** Every byte of the range reads as zero. */
        ZEROED
    }

    public DataFault {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + offset + "+" + length);
        }
        if (kind == null) {
            throw new IllegalArgumentException("a data fault needs a kind: BIT_ROT or ZEROED");
        }
    }

    /** A seeded bit of {@code file}'s bytes flipped on the drive. */
    public static DataFault bitRot(Path file) {
        return new DataFault(requireFile(file), 0, Long.MAX_VALUE, Kind.BIT_ROT, 0);
    }

    /** All of {@code file}'s bytes zeroed on the drive; {@link #range} to zero part of them. */
    public static DataFault zeroed(Path file) {
        return new DataFault(requireFile(file), 0, Long.MAX_VALUE, Kind.ZEROED, 0);
    }

    /** A seeded bit of {@code length} bytes of the block model's drive from {@code offset} flipped. */
    public static DataFault bitRotOnDrive(long offset, long length) {
        return new DataFault(null, offset, length, Kind.BIT_ROT, 0);
    }

    /** {@code length} bytes of the block model's drive from {@code offset} zeroed. */
    public static DataFault zeroedOnDrive(long offset, long length) {
        return new DataFault(null, offset, length, Kind.ZEROED, 0);
    }

    private static Path requireFile(Path file) {
        if (file == null) {
            throw new IllegalArgumentException("name a file, or place the fault on the drive (bitRotOnDrive, zeroedOnDrive)");
        }
        return file;
    }

    /** This fault, on {@code bytes} bytes of the file (or drive) from {@code from} only. */
    public DataFault range(long from, long bytes) {
        return new DataFault(file, from, bytes, kind, seed);
    }

    /** This fault, its byte and bit picked by {@code s}. */
    public DataFault seed(long s) {
        return new DataFault(file, offset, length, kind, s);
    }

    /** What the fault changes of a file (or drive) of {@code size} bytes: {@code length} bytes from {@code offset}, and the bit flipped, or -1 for zeros. */
    record Pick(long offset, long length, int bit) {
    }

    /**
     * The bytes this fault changes of a file (or drive) of {@code size} bytes: the range cut to the size, and for bit
     * rot one byte of it and one bit, drawn from the seed.
     *
     * @throws IllegalArgumentException when the range holds none of the file's bytes
     */
    Pick pick(long size, String what) {
        long end = offset + length < 0 ? Long.MAX_VALUE : offset + length;
        long to = Math.min(end, size);
        if (offset >= to) {
            throw new IllegalArgumentException(what + " has " + size + " bytes: none of them in " + offset + "+"
                    + (length == Long.MAX_VALUE ? "(to the end)" : String.valueOf(length)) + " to corrupt");
        }
        if (kind == Kind.ZEROED) {
            return new Pick(offset, to - offset, -1);
        }
        SplittableRandom random = new SplittableRandom(seed);
        long at = offset + random.nextLong(to - offset);
        return new Pick(at, 1, random.nextInt(8));
    }

    @Override
    public String toString() {
        String range = offset + "+" + (length == Long.MAX_VALUE ? "(to the end)" : String.valueOf(length));
        String where = (file == null ? "the drive's bytes " : file + " bytes ") + range;
        return kind == Kind.BIT_ROT ? "a bit of " + where + " flipped (seed " + seed + ")" : where + " zeroed";
    }
}

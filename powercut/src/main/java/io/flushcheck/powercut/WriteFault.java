package io.flushcheck.powercut;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A write the drive gets wrong with the power on ({@link SimulatedDisk#failWrites}): a write to {@code length} bytes
 * from {@code offset} of a file on the disk, or of the block model's drive itself ({@code file} null), is, as
 * {@code kind} says,
 * <ul>
 *   <li>{@link Kind#FAILED} ({@link #toFile}, {@link #toDrive}): failed with {@code errno}, changing nothing;
 *   <li>{@link Kind#LOST} ({@link #lost()}): acknowledged, and so is the flush after it, but the drive keeps the
 *       range's old contents: the write's bytes outside the range are written, those inside never are;
 *   <li>{@link Kind#MISDIRECTED} ({@link #misdirectedTo}, {@link #misdirectedToDrive}): acknowledged, its bytes inside
 *       the range written at another place ({@code target} from {@code targetOffset}; the same file, another file,
 *       or on the block model a place of the drive), and the range keeps its old contents.
 * </ul>
 * With {@code persistent} every write that meets the range does so; without, only the first. A failure is
 * persistent unless {@link #once()} says otherwise; a lost or misdirected write happens once unless
 * {@link #always()} says otherwise. {@link SimulatedDisk#failedWrites()} counts the failed writes,
 * {@link SimulatedDisk#lostWrites()} and {@link SimulatedDisk#misdirectedWrites()} the others.
 *
 * <p>On the file model a lost or misdirected write may be planned on a file the workload has yet to make, by its
 * path under the disk's {@link SimulatedDisk#path()}: it is armed on the file at the first write it gets by that name.
 * On the block model a range of a file is planned where the file's bytes lie on the drive when the fault is
 * armed (FIEMAP), so the file must have them there (synced) and its next overwrite must land in place: ext4
 * and xfs overwrite in place, btrfs writes elsewhere (copy on write) and is refused. The fault is met when the
 * kernel writes the pages back (at writeback or at the program's fsync), not at the program's {@code write}: arm it
 * before the fsync that is to meet it. A failed write is then reported by that fsync, as from a disk; a lost or
 * misdirected one is not reported at all. A file's range holds its data blocks only: the journal's and the inode's
 * writes go elsewhere and never meet it, so ext4 (data=ordered) commits the file's metadata as usual and only the
 * data is wrong. A drive range ({@link #toDrive}) can hold metadata or the journal; what the filesystem makes of
 * its lost or misplaced writes is its own answer. On the file model the write reaches the tree as it is made
 * (FUSE without a writeback cache): a failed {@code write} call itself fails.
 *
 * <p>What a read shows with the power on. Block model: the kernel's page cache holds the bytes the program wrote, so a
 * buffered read of the written file shows them (and a misdirected write's target as it was) for as long as the pages
 * stay cached; an {@code O_DIRECT} read reaches the loop device, which shows the drive's old bytes only with
 * {@link SimulatedDiskBuilder#directIo} (without it the loop device writes through the drive image's own page cache,
 * which keeps the bytes the drive dropped). File model: reads are served as from a page cache that is never dropped:
 * the written file shows the bytes the program wrote, a misdirected write's target reads as it was. What the drive
 * holds shows after a cut, in the survivor: the range's old bytes, and the target's range with the misdirected ones.
 * On the file model a misdirected write is a write of the target file that its page cache does not see: it is
 * durable at the target's next sync (the writer's own when it is the same file), and a cut before drops it; bytes
 * that would land past the target's end land in no file.
 *
 * <pre>{@code
 * disk.failWrites(WriteFault.toFile(disk.path().resolve("journal")).errno(Errno.EIO).once());
 * disk.failWrites(WriteFault.toFile(journal).range(8192, 4096).lost());
 * disk.failWrites(WriteFault.toFile(journal).range(8192, 4096).misdirectedTo(journal, 4096));
 * }</pre>
 *
 * @param file         the file whose bytes fail, or null for the drive's own bytes (block model)
 * @param offset       the first byte that fails
 * @param length       how many bytes from it fail; {@link Long#MAX_VALUE} for the rest of the file
 * @param errno        what a failed write returns (a lost or misdirected one returns success)
 * @param persistent   whether every write to the range fails, or only the first
 * @param kind         what the drive does with a write that meets the range
 * @param target       where a misdirected write lands: a file, or null for the block model's drive
 * @param targetOffset the byte of {@code target} where the range's first byte lands; 0 unless misdirected
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record WriteFault(Path file, long offset, long length, Errno errno, boolean persistent, Kind kind, Path target,
                         long targetOffset) {

    /** What the drive does with a write that meets a fault's range. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public enum Kind {
        /** Fails it with the fault's errno, writing nothing. */
        FAILED,
        /** Acknowledges it and keeps the range's old contents. */
        LOST,
        /** Acknowledges it and writes the range's part at the target instead. */
        MISDIRECTED
    }

    public WriteFault {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + offset + "+" + length);
        }
        if (errno == null) {
            throw new IllegalArgumentException("a failing write needs an errno");
        }
        if (kind == null) {
            throw new IllegalArgumentException("a write fault needs a kind");
        }
        if (kind == Kind.MISDIRECTED) {
            if (length == Long.MAX_VALUE) {
                throw new IllegalArgumentException("a misdirected write needs a range of a known length: range(from, bytes)");
            }
            if (targetOffset < 0 || targetOffset + length < 0) {
                throw new IllegalArgumentException("a misdirected write lands at byte 0 or later, not " + targetOffset);
            }
        } else if (target != null || targetOffset != 0) {
            throw new IllegalArgumentException("only a misdirected write has a target");
        }
    }

    /** A failed write's fault: {@link Kind#FAILED}. */
    public WriteFault(Path file, long offset, long length, Errno errno, boolean persistent) {
        this(file, offset, length, errno, persistent, Kind.FAILED, null, 0);
    }

    /** Every write to {@code file}'s bytes as they are now fails with EIO. */
    public static WriteFault toFile(Path file) {
        return new WriteFault(file, 0, Long.MAX_VALUE, Errno.EIO, true);
    }

    /** Every write to {@code length} bytes of the block model's drive from {@code offset} fails with EIO. */
    public static WriteFault toDrive(long offset, long length) {
        return new WriteFault(null, offset, length, Errno.EIO, true);
    }

    /** This fault, on {@code bytes} bytes of the file (or drive) from {@code from} only. */
    public WriteFault range(long from, long bytes) {
        return new WriteFault(file, from, bytes, errno, persistent, kind, target, targetOffset);
    }

    /** This fault, failing with {@code e}. */
    public WriteFault errno(Errno e) {
        return new WriteFault(file, offset, length, e, persistent, kind, target, targetOffset);
    }

    /** This fault, met by the first write to its range only. */
    public WriteFault once() {
        return new WriteFault(file, offset, length, errno, false, kind, target, targetOffset);
    }

    /** This fault, met by every write to its range. */
    public WriteFault always() {
        return new WriteFault(file, offset, length, errno, true, kind, target, targetOffset);
    }

    /**
     * The first write to this fault's range is lost: acknowledged (and the flush after it), its bytes inside the
     * range never written; {@link #always()} loses every one.
     */
    public WriteFault lost() {
        return new WriteFault(file, offset, length, errno, false, Kind.LOST, null, 0);
    }

    /**
     * The first write to this fault's range is misdirected: its bytes inside the range are written to {@code other}
     * instead, the range's first byte at {@code otherOffset} (of the same file, or of another), and the range keeps
     * its old contents; {@link #always()} misdirects every one. On the block model the place is where
     * {@code other}'s bytes lie on the drive (FIEMAP) when the fault is armed, so they must be there (synced).
     */
    public WriteFault misdirectedTo(Path other, long otherOffset) {
        if (other == null) {
            throw new IllegalArgumentException("a misdirected write needs a file to land in (misdirectedToDrive for the drive)");
        }
        return new WriteFault(file, offset, length, errno, false, Kind.MISDIRECTED, other, otherOffset);
    }

    /** As {@link #misdirectedTo}, the bytes landing at {@code driveOffset} of the block model's drive. */
    public WriteFault misdirectedToDrive(long driveOffset) {
        return new WriteFault(file, offset, length, errno, false, Kind.MISDIRECTED, null, driveOffset);
    }

    @Override
    public String toString() {
        String range = (file == null ? "the drive" : file) + " bytes " + offset + "+"
                + (length == Long.MAX_VALUE ? "(to the end)" : String.valueOf(length));
        String how = persistent ? ", every one" : ", once";
        return switch (kind) {
            case FAILED -> "writes to " + range + " fail with " + errno + how;
            case LOST -> "writes to " + range + " are lost" + how;
            case MISDIRECTED -> "writes to " + range + " land at " + (target == null ? "the drive" : target) + " byte "
                    + targetOffset + how;
        };
    }
}

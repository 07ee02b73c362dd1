package io.flushcheck.powercut;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Reads that fail ({@link SimulatedDisk#failReads}): reads of {@code length} bytes from {@code offset} of a file on
 * the disk, or of the block model's drive itself ({@code file} null), fail with {@code errno}; after a cut, of a file
 * of its survivor, or of the survivor's drive. With {@code persistent} the range is a bad sector: every read of it fails until a write covers
 * it (the semantics of Linux's dm-dust target); without, it is a transient error: the first read fails, the
 * next succeeds.
 *
 * <p>A range of a file is placed where the file's bytes lie when the fault is armed: on the block model where
 * FIEMAP says they are on the drive (the file is fsynced first, so they have a place; on btrfs, whose FIEMAP
 * addresses are its own, mapped onto the drive through its chunk tree), on the file model by the file's inode.
 * Bytes with no place of their own on the drive (inline in btrfs's metadata, compressed) are refused, and so, on a
 * survivor, are bytes no write that survived the cut put on the drive (never synced, a hole, past the end): the
 * file model finds them as holes of the survivor it wrote, and refuses them with the block model's words. A write
 * that reaches the range clears the fault: on the block model a write to any part of a 4 KiB sector of the drive clears that
 * sector (as dm-dust clears a block any write reaches). A filesystem that writes the file's new bytes elsewhere
 * leaves the bad sectors where they were, no longer the file's.
 *
 * <p>On the file model a bad sector follows the file's blocks as ext4's do (measured against ext4 on the block
 * model): the range takes the whole 4 KiB blocks of the file it reaches into; a truncate frees the blocks wholly past
 * the new end, so bytes written there later read; a write that covers a bad block whole clears it; a write into part
 * of a bad block that holds bytes of the file fails with EIO and changes nothing, as the kernel's read-modify-write
 * of the block fails (the FUSE mount has no writeback cache: each write reaches the tree as made). Its blocks are
 * 4 KiB, as ext4's on a drive of 512 MiB and more; a smaller ext4 made without {@code -b 4096} has 1 KiB blocks, and
 * after a truncate to 3 bytes there keeps only the first 1 KiB, so writes at 2048 to 4095 land on new blocks and
 * succeed where the file model, and ext4 with 4 KiB blocks, fail them.
 *
 * <p>A read served from the page cache cannot fail, as on a real disk: arming a fault on a file syncs the file
 * and drops its clean cached pages ({@code posix_fadvise(POSIX_FADV_DONTNEED)}), so its next read reaches the
 * drive; a fault on a drive range ({@link #toDrive}) drops no file's pages, so a file whose pages are cached
 * reads them without error. A transient error is met by a read that goes to the drive once: a buffered read
 * whose read-ahead fails is retried by the kernel page by page and succeeds, so use {@code O_DIRECT} (on the block
 * model with {@link SimulatedDiskBuilder#directIo}) to see it.
 *
 * <p>After a cut, the survivor {@link SimulatedDisk#cutPower()} returned is plain (the block model's a saved image on a
 * loop device, the file model's a directory), and cannot fail a read. The first read fault on it moves it, at the
 * same path, onto what can: on the block model a drive of its own that starts from the saved image, served and
 * attached as the disk's drive is, the file's range placed by FIEMAP on the survivor; on the file model a tree served
 * over FUSE that holds the directory's files, all of them durable. A cut whose survivor's reads never fail costs
 * nothing for it. Files the program holds open cannot move with it: arm the faults as the cut returns, before the
 * survivor's files are opened (with a file of it open, or a process working in it, the fault is refused).
 * {@link SimulatedDisk#failedReads()} counts the survivor's failed reads with the disk's.
 *
 * <pre>{@code
 * disk.failReads(ReadFault.toFile(disk.path().resolve("journal")).range(4096, 4096));
 * Path survivor = disk.cutPower();
 * disk.failReads(ReadFault.toFile(survivor.resolve("journal")).range(4096, 4096).once());
 * }</pre>
 *
 * @param file       the file whose bytes fail, or null for the drive's own bytes (block model)
 * @param offset     the first byte that fails
 * @param length     how many bytes from it fail; {@link Long#MAX_VALUE} for the rest of the file
 * @param errno      what the failed read returns
 * @param persistent whether every read of the range fails until it is rewritten, or only the first
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record ReadFault(Path file, long offset, long length, Errno errno, boolean persistent) {

    public ReadFault {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + offset + "+" + length);
        }
        if (errno == null) {
            throw new IllegalArgumentException("a failing read needs an errno");
        }
    }

    /** Every read of {@code file}'s bytes as they lie now fails with EIO until they are rewritten. */
    public static ReadFault toFile(Path file) {
        return new ReadFault(file, 0, Long.MAX_VALUE, Errno.EIO, true);
    }

    /** Every read of {@code length} bytes of the block model's drive from {@code offset} fails with EIO until rewritten. */
    public static ReadFault toDrive(long offset, long length) {
        return new ReadFault(null, offset, length, Errno.EIO, true);
    }

    /** This fault, on {@code bytes} bytes of the file (or drive) from {@code from} only. */
    public ReadFault range(long from, long bytes) {
        return new ReadFault(file, from, bytes, errno, persistent);
    }

    /** This fault, failing with {@code e}. */
    public ReadFault errno(Errno e) {
        return new ReadFault(file, offset, length, e, persistent);
    }

    /** This fault as a transient error: only the first read it meets fails. */
    public ReadFault once() {
        return new ReadFault(file, offset, length, errno, false);
    }

    @Override
    public String toString() {
        return "reads of " + (file == null ? "the drive" : file) + " bytes " + offset + "+"
                + (length == Long.MAX_VALUE ? "(to the end)" : String.valueOf(length)) + " fail with " + errno
                + (persistent ? ", every one until rewritten" : ", once");
    }
}

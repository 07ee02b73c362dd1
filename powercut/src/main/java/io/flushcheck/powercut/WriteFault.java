package io.flushcheck.powercut;

import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Writes that fail with the power on ({@link SimulatedDisk#failWrites}): writes to {@code length} bytes from
 * {@code offset} of a file on the disk, or of the block model's drive itself ({@code file} null), fail with
 * {@code errno}; with {@code persistent} every such write, without only the first.
 *
 * <p>On the block model a range of a file is planned where the file's bytes lie on the drive when the fault is
 * armed (FIEMAP), so the file must have them there (synced) and its next overwrite must land in place: ext4
 * and xfs overwrite in place, btrfs writes elsewhere (copy on write) and is refused. The kernel's writeback then
 * meets the error, and a buffered write learns of it at its fsync, as from a disk. On the file model the write
 * reaches the tree as it is made (FUSE without a writeback cache), so the {@code write} call itself fails.
 *
 * <pre>{@code
 * disk.failWrites(WriteFault.toFile(disk.path().resolve("journal")).errno(Errno.EIO).once());
 * }</pre>
 *
 * @param file       the file whose bytes fail, or null for the drive's own bytes (block model)
 * @param offset     the first byte that fails
 * @param length     how many bytes from it fail; {@link Long#MAX_VALUE} for the rest of the file
 * @param errno      what the failed write returns
 * @param persistent whether every write to the range fails, or only the first
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record WriteFault(Path file, long offset, long length, Errno errno, boolean persistent) {

    public WriteFault {
        if (offset < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + offset + "+" + length);
        }
        if (errno == null) {
            throw new IllegalArgumentException("a failing write needs an errno");
        }
    }

    /** Every write to {@code file}'s bytes as they are now fails with EIO. */
    public static WriteFault toFile(Path file) {
        return new WriteFault(file, 0, Long.MAX_VALUE, Errno.EIO, true);
    }

    /** Every write to {@code length} bytes of the block model's drive from {@code offset} fails with EIO. */
    public static WriteFault toDrive(long offset, long length) {
        return new WriteFault(null, offset, length, Errno.EIO, true);
    }

    /** This fault, on {@code length} bytes of the file from {@code offset} only. */
    public WriteFault range(long from, long bytes) {
        return new WriteFault(file, from, bytes, errno, persistent);
    }

    /** This fault, failing with {@code e}. */
    public WriteFault errno(Errno e) {
        return new WriteFault(file, offset, length, e, persistent);
    }

    /** This fault, failing only the first write it meets. */
    public WriteFault once() {
        return new WriteFault(file, offset, length, errno, false);
    }

    @Override
    public String toString() {
        return "writes to " + (file == null ? "the drive" : file) + " bytes " + offset + "+"
                + (length == Long.MAX_VALUE ? "(to the end)" : String.valueOf(length)) + " fail with " + errno
                + (persistent ? ", every one" : ", once");
    }
}

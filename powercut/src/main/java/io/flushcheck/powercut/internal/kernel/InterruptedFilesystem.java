package io.flushcheck.powercut.internal.kernel;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Libc;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * What is done to a filesystem whose drive lost its power while the kernel still has it mounted: it is read
 * without being written, then, where files are still open on it, shut down as a filesystem whose disk went away.
 *
 * <p>Both are best efforts: on a kernel or filesystem without the call, the filesystem is read and unmounted
 * as it is, with the same results and more to do at its unmount.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class InterruptedFilesystem {

    /** {@code mount_setattr(2)}, since Linux 5.12: the same number on every architecture. */
    private static final long SYS_MOUNT_SETATTR = 442;
    private static final int AT_FDCWD = -100;
    private static final long MOUNT_ATTR_NOATIME = 0x10;
    /** The access-time bits of a mount's attributes, cleared before one of them is set. */
    private static final long MOUNT_ATTR_ATIME = 0x70;
    /** {@code FS_IOC_SHUTDOWN}, {@code _IOR('X', 125, __u32)}: ext4, xfs (XFS_IOC_GOINGDOWN), f2fs; btrfs on newer kernels. */
    private static final long FS_IOC_SHUTDOWN = 0x8004587DL;
    /** Shut down without writing the journal or log: what a drive without power would have let through. */
    private static final int FS_SHUTDOWN_FLAGS_NOLOGFLUSH = 2;

    private InterruptedFilesystem() {
    }

    /**
     * Stops access times being updated at {@code mountPoint} (this mount only): listing a directory there
     * would change its access time under relatime, a write to a filesystem whose journal the cut may have
     * aborted, which ext4 answers with an error in the kernel's log ("Detected aborted journal") and a
     * read-only remount. The filesystem's own options are left as they are.
     */
    public static void stopAccessTimes(Path mountPoint) {
        try (Memory attr = new Memory(32)) {
            attr.clear();
            attr.setLong(0, MOUNT_ATTR_NOATIME); // attr_set
            attr.setLong(8, MOUNT_ATTR_ATIME); // attr_clr
            Libc.C.syscall(SYS_MOUNT_SETATTR, AT_FDCWD, mountPoint.toString(), 0, attr, 32L);
        }
    }

    /**
     * Shuts the filesystem at {@code mountPoint} down as the kernel does for a disk that went away: every
     * later call on it fails with EIO (files a test still holds open there read and write nothing more),
     * and its unmount writes nothing. Its journal is not written first ({@code NOLOGFLUSH}).
     */
    public static void shutDown(Path mountPoint) {
        int fd = Libc.C.open(mountPoint.toString(), Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC);
        if (fd < 0) {
            return;
        }
        try (Memory flags = new Memory(4)) {
            flags.setInt(0, FS_SHUTDOWN_FLAGS_NOLOGFLUSH);
            Libc.C.ioctl(fd, FS_IOC_SHUTDOWN, flags);
        } finally {
            Libc.C.close(fd);
        }
    }
}

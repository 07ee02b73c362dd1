package io.flushcheck.powercut.internal.kernel;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A filesystem whose drive lost its power while the kernel still has it mounted, held by a descriptor of its root
 * that is known to be on the disk's loop device: it is read without being written, then, where files are still
 * open on it, shut down as a filesystem whose disk went away. Both calls act on the descriptor, never on a path
 * looked up again, so that nothing mounted over the path meanwhile is touched.
 *
 * <p>Both are best efforts: on a kernel or filesystem without the call, the filesystem is read and unmounted as it
 * is, with the same results and more to do at its unmount.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class InterruptedFilesystem implements AutoCloseable {

    /** {@code mount_setattr(2)}, since Linux 5.12: the same number on every architecture. */
    private static final long SYS_MOUNT_SETATTR = 442;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final long MOUNT_ATTR_NOATIME = 0x10;
    /** The access-time bits of a mount's attributes, cleared before one of them is set. */
    private static final long MOUNT_ATTR_ATIME = 0x70;
    /** {@code FS_IOC_SHUTDOWN}, {@code _IOR('X', 125, __u32)}: ext4, xfs (XFS_IOC_GOINGDOWN), f2fs. */
    private static final long FS_IOC_SHUTDOWN = 0x8004587DL;
    /** Shut down without writing the journal or log: what a drive without power would have let through. */
    private static final int FS_SHUTDOWN_FLAGS_NOLOGFLUSH = 2;

    private int fd;

    private InterruptedFilesystem(int fd) {
        this.fd = fd;
    }

    /**
     * The filesystem mounted at {@code mountPoint}, if it is the one on {@code device} (its root's {@code st_dev} is
     * the device's number); null otherwise: nothing mounted there any more, another filesystem mounted over it, or
     * one whose files report a device number of their own (btrfs), which is then left as it is.
     */
    public static InterruptedFilesystem open(Path mountPoint, String device) {
        int fd = Libc.C.open(mountPoint.toString(), Libc.O_RDONLY | Libc.O_DIRECTORY | Libc.O_NOFOLLOW | Libc.O_CLOEXEC);
        if (fd < 0) {
            return null;
        }
        try {
            long rdev = (Long) Files.getAttribute(Path.of(device), "unix:rdev");
            long dev = (Long) Files.getAttribute(Path.of("/proc/self/fd/" + fd), "unix:dev");
            if (dev == rdev) {
                return new InterruptedFilesystem(fd);
            }
        } catch (IOException | RuntimeException e) {
            // not known to be the disk's: left alone
        }
        Libc.C.close(fd);
        return null;
    }

    /**
     * Stops access times being updated on this mount (the filesystem's own options are left as they are): listing a
     * directory would otherwise change its access time under relatime, a write to a filesystem whose journal the cut
     * may have aborted, which ext4 answers with an error in the kernel's log ("Detected aborted journal") and a
     * read-only remount.
     *
     * @return false where the kernel has no {@code mount_setattr(2)} or refused it
     */
    public boolean stopAccessTimes() {
        try (Memory attr = new Memory(32)) {
            attr.clear();
            attr.setLong(0, MOUNT_ATTR_NOATIME); // attr_set
            attr.setLong(8, MOUNT_ATTR_ATIME); // attr_clr
            return Libc.C.syscall(SYS_MOUNT_SETATTR, fd, "", AT_EMPTY_PATH, attr, 32L) == 0;
        }
    }

    /**
     * Shuts the filesystem down as the kernel does for a disk that went away: every later read or write of it fails
     * with EIO (files a test still holds open there read and write nothing more), and its unmount writes nothing.
     * Its journal is not written first ({@code NOLOGFLUSH}).
     *
     * @return false where the filesystem has no shutdown or refused it
     */
    public boolean shutDown() {
        try (Memory flags = new Memory(4)) {
            flags.setInt(0, FS_SHUTDOWN_FLAGS_NOLOGFLUSH);
            return Libc.C.ioctl(fd, FS_IOC_SHUTDOWN, flags) == 0;
        }
    }

    @Override
    public void close() {
        if (fd >= 0) {
            Libc.C.close(fd);
            fd = -1;
        }
    }
}

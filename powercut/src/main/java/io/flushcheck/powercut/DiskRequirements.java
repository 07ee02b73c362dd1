package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.powercut.internal.kernel.Filesystems;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * What a simulated disk needs on this machine, asked in one place by everything that makes disks or says why it
 * cannot: the block model needs root, {@code /dev/fuse} and the filesystem's mkfs (and a free loop device, known
 * only by trying: {@link NoFreeLoopDeviceException}); the file model needs {@code /dev/fuse}, and fusermount where
 * not root. Each caller words what is lacking for its own reader.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DiskRequirements {

    private DiskRequirements() {
    }

    /** A thing a simulated disk needs that this machine lacks. */
    public enum Lack {
        /** The block model mounts a filesystem and attaches loop devices: root. */
        ROOT,
        /** Both models are served over FUSE: {@code /dev/fuse}, the FUSE kernel module. */
        FUSE_DEVICE,
        /** The file model, without root, is mounted by fusermount3 or fuse 2's fusermount. */
        FUSERMOUNT,
        /** The block model makes its filesystem with the filesystem's mkfs ({@link #mkfs}). */
        MKFS
    }

    /**
     * The first thing this machine lacks to make a disk of {@code model} ({@link DiskModel#AUTO} as it resolves
     * here) with {@code fs} (the block model's filesystem; null asks nothing of mkfs), or null when it lacks none,
     * asked in the order of {@link Lack}.
     */
    public static Lack lacking(DiskModel model, String fs) {
        if (model.resolved() == DiskModel.FILE) {
            if (!fuseDevice()) {
                return Lack.FUSE_DEVICE;
            }
            return root() || FuseMount.fusermount() != null ? null : Lack.FUSERMOUNT;
        }
        if (!root()) {
            return Lack.ROOT;
        }
        if (!fuseDevice()) {
            return Lack.FUSE_DEVICE;
        }
        return fs == null || mkfsInstalled(fs) ? null : Lack.MKFS;
    }

    /** Whether this process's effective user is root (the second {@code Uid:} field of /proc/self/status is 0). */
    public static boolean root() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    String[] f = line.substring(4).trim().split("\\s+");
                    return f.length > 1 && f[1].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** Whether {@code /dev/fuse} is there. */
    public static boolean fuseDevice() {
        return Files.exists(Path.of("/dev/fuse"));
    }

    /** The program that makes {@code fs}: {@code mkfs.FS}. */
    public static String mkfs(String fs) {
        return Filesystems.tool(fs);
    }

    /** The Debian package that has {@link #mkfs}. */
    public static String mkfsPackage(String fs) {
        return Filesystems.debianPackage(fs);
    }

    /** Whether {@link #mkfs} is installed, on PATH or in the system's sbin and bin directories. */
    public static boolean mkfsInstalled(String fs) {
        return Filesystems.find(mkfs(fs)) != null;
    }
}

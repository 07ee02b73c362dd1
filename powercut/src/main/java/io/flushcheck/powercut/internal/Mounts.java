package io.flushcheck.powercut.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Mounts, unmounts and syncs filesystems by their system calls, as root: mount(8), umount(8) and sync(1)
 * would each cost a process, several times per power-cut cycle.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Mounts {

    private static final int EINVAL = 22;
    private static final int ENOENT = 2;
    private static final int O_PATH = 010000000;

    private Mounts() {
    }

    /** {@code mount -t type -o options device target}. */
    public static void mount(String device, Path target, String type, List<String> options) throws IOException {
        String data = options.isEmpty() ? null : String.join(",", options);
        if (Libc.C.mount(device, target.toString(), type, 0, data) != 0) {
            int errno = Libc.errno();
            throw new IOException("cannot mount " + device + " (" + type + (data == null ? "" : ", " + data) + ") on "
                    + target + ": " + Libc.C.strerror(errno) + hint(type, errno));
        }
    }

    private static String hint(String type, int errno) {
        return errno == EINVAL ? " (the kernel's log says why: dmesg | grep -i " + type + ")" : "";
    }

    /**
     * Detaches the filesystem at {@code target} now and frees it once no file there is open any more
     * ({@code umount --lazy}); nothing mounted there is not an error.
     */
    public static void unmountLazy(Path target) throws IOException {
        if (Libc.C.umount2(target.toString(), Libc.MNT_DETACH) != 0) {
            int errno = Libc.errno();
            if (errno != EINVAL && errno != ENOENT) {
                throw new IOException("cannot unmount " + target + ": " + Libc.C.strerror(errno));
            }
        }
    }

    /**
     * As {@link #unmountLazy}, returning as soon as the mount is gone from the tree: the filesystem's own
     * teardown (ext4 commits its journal and stops its journal thread, about 10 ms) runs in a thread of its
     * own. A descriptor held on the mount makes umount2 leave the teardown to the descriptor's last close,
     * which that thread makes.
     */
    public static void unmountInBackground(Path target) throws IOException {
        int fd = Libc.C.open(target.toString(), O_PATH | Libc.O_CLOEXEC);
        try {
            unmountLazy(target);
        } finally {
            if (fd >= 0) {
                Thread closer = new Thread(() -> Libc.C.close(fd), "flushcheck-unmount");
                closer.setDaemon(true);
                closer.start();
            }
        }
    }

    /** {@code sync -f}: writes the filesystem of {@code path} out and flushes its device. */
    public static void syncFilesystem(Path path) throws IOException {
        int fd = Libc.C.open(path.toString(), Libc.O_RDONLY | Libc.O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("cannot open " + path + ": " + Libc.C.strerror(Libc.errno()));
        }
        try {
            if (Libc.C.syncfs(fd) != 0) {
                throw new IOException("cannot sync the filesystem of " + path + ": " + Libc.C.strerror(Libc.errno()));
            }
        } finally {
            Libc.C.close(fd);
        }
    }
}

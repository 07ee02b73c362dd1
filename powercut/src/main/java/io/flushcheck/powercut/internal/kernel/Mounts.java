package io.flushcheck.powercut.internal.kernel;

import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private static final int EBUSY = 16;
    private static final int MNT_EXPIRE = 4;

    private Mounts() {
    }

    /**
     * The flags of a filesystem whose files are data to look at, a crash state's or a survivor's: no file on it
     * runs as its setuid owner, opens as a device, or runs at all ({@code nosuid,nodev,noexec}).
     */
    public static final long DATA = Libc.MS_NOSUID | Libc.MS_NODEV | Libc.MS_NOEXEC;

    /**
     * As {@link #DATA}, and no symbolic link on it is followed ({@code nosymfollow}) where the kernel has that
     * (Linux 5.10): for a filesystem that came from elsewhere, whose links may point anywhere on this machine.
     */
    public static final long FOREIGN_DATA = DATA | Libc.MS_NOSYMFOLLOW;

    private static final int ENODEV = 19;

    /** False once the kernel has refused {@code nosymfollow}: it predates it. */
    private static volatile boolean symfollowFlag = true;

    /** {@code mount -t type -o options device target}. */
    public static void mount(String device, Path target, String type, List<String> options) throws IOException {
        mount(device, target, type, options, 0);
    }

    /**
     * As {@link #mount(String, Path, String, List)}, with the {@code mount(2)} {@code flags} ({@link #DATA},
     * {@link #FOREIGN_DATA}); a kernel that refuses {@code MS_NOSYMFOLLOW} is asked again without it.
     *
     * @throws UnmountableTypeException when the kernel has no filesystem of {@code type} (ENODEV)
     */
    public static void mount(String device, Path target, String type, List<String> options, long flags)
            throws IOException {
        String data = options.isEmpty() ? null : String.join(",", options);
        long asked = symfollowFlag ? flags : flags & ~Libc.MS_NOSYMFOLLOW;
        int result = Libc.C.mount(device, target.toString(), type, asked, data);
        int errno = result == 0 ? 0 : Libc.errno();
        if (result != 0 && errno == EINVAL && (asked & Libc.MS_NOSYMFOLLOW) != 0) {
            result = Libc.C.mount(device, target.toString(), type, asked & ~Libc.MS_NOSYMFOLLOW, data);
            errno = result == 0 ? 0 : Libc.errno();
            if (result == 0) {
                symfollowFlag = false;
            }
        }
        if (result != 0) {
            String message = "cannot mount " + device + " (" + type + (data == null ? "" : ", " + data) + ") on "
                    + target + ": " + Libc.C.strerror(errno) + hint(type, errno);
            throw errno == ENODEV ? new UnmountableTypeException(type, message) : new IOException(message);
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
     * Unmounts the filesystem at {@code target} unless it is in use: the kernel's own refusal ({@code EBUSY}) is the
     * answer, so that no file can open between a check and the unmount. Nothing mounted there is not an error.
     *
     * @return false when a file open there, or a process working there, keeps the filesystem (nothing unmounted)
     */
    public static boolean unmountIfIdle(Path target) throws IOException {
        if (Libc.C.umount2(target.toString(), 0) != 0) {
            int errno = Libc.errno();
            if (errno == EBUSY) {
                return false;
            }
            if (errno != EINVAL && errno != ENOENT) {
                throw new IOException("cannot unmount " + target + ": " + Libc.C.strerror(errno));
            }
        }
        return true;
    }

    /**
     * Whether the filesystem at {@code target} is in use: a file open on it, or a process's working directory
     * there, keeps it (and its device) after a lazy unmount, until the last of them goes. Asked just before
     * unmounting: the kernel's {@code umount2(MNT_EXPIRE)} answers EBUSY for a mount in use and unmounts
     * nothing on a first call; it only marks an idle mount expired, which any access to it clears.
     *
     * @return false as well when nothing is mounted there, or the kernel does not say (another errno)
     */
    public static boolean inUse(Path target) {
        // 0: marked expired before and idle since, and unmounted now; EAGAIN: idle, marked now
        return Libc.C.umount2(target.toString(), MNT_EXPIRE) != 0 && Libc.errno() == EBUSY;
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

    /**
     * Whether a filesystem of {@code type} is mounted at {@code target} in this process's mount table. The
     * table is compared byte for byte, as the kernel writes it (a space, tab, newline or backslash of a
     * mount point as an octal escape), so that no name read differently can hide a mount.
     */
    public static boolean mountedAt(Path target, String type) throws IOException {
        return at(target).stream().anyMatch(m -> m[0].equals(type));
    }

    /** The source (the device) of the filesystem mounted last at {@code target}, or null when none is. */
    public static String deviceAt(Path target) throws IOException {
        List<String[]> mounts = at(target);
        return mounts.isEmpty() ? null : mounts.get(mounts.size() - 1)[1];
    }

    /** The type and source of each filesystem mounted at {@code target}, first mounted first. */
    private static List<String[]> at(Path target) throws IOException {
        String point = escaped(target.toString().getBytes(NAMES));
        String table = new String(Files.readAllBytes(Path.of("/proc/self/mountinfo")), StandardCharsets.ISO_8859_1);
        List<String[]> found = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] f = line.split(" ");
            int dash = line.indexOf(" - ");
            if (f.length > 4 && f[4].equals(point) && dash > 0) {
                String[] after = line.substring(dash + 3).split(" ");
                found.add(new String[] {after[0], after.length > 1 ? after[1] : ""});
            }
        }
        return found;
    }

    /** How this JVM turns file names into bytes (the locale's: {@code sun.jnu.encoding}). */
    private static final Charset NAMES = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));

    /** A name's bytes as mountinfo writes them, one char per byte. */
    private static String escaped(byte[] name) {
        StringBuilder sb = new StringBuilder();
        for (byte b : name) {
            int c = b & 0xff;
            if (c == ' ' || c == '\t' || c == '\n' || c == '\\') {
                sb.append('\\').append(String.format("%03o", c));
            } else {
                sb.append((char) c);
            }
        }
        return sb.toString();
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

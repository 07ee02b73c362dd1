package io.flushcheck.powercut.internal.fuse;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.kernel.Mounts;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * A FUSE filesystem's mount, made the way the process may: as root by {@code mount(2)} on a
 * {@code /dev/fuse} descriptor of its own; otherwise, or for a server that may die with its process
 * ({@link #mountWatched}), by the setuid {@code fusermount3} (or fuse 2's {@code fusermount}), which opens
 * {@code /dev/fuse}, mounts it, and passes the descriptor back over a Unix socket named in
 * {@code _FUSE_COMMFD} (SCM_RIGHTS), as libfuse does. With {@code auto_unmount}, fusermount keeps watching
 * that socket and unmounts when this process dies, however it dies.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FuseMount {

    private static final int AF_UNIX = 1;
    private static final int SOCK_STREAM = 1;
    private static final int F_SETFD = 2;
    private static final int FD_CLOEXEC = 1;
    private static final int SOL_SOCKET = 1;
    private static final int SCM_RIGHTS = 1;

    private final Path mountPoint;
    private final int fd;
    private final String fusermount;
    private final int commFd;
    private final int watcher;
    private final String type;
    private boolean unmounted;
    private boolean watcherClosed;
    private boolean closed;

    private FuseMount(Path mountPoint, String type, int fd, String fusermount, int commFd, int watcher) {
        this.mountPoint = mountPoint;
        this.type = type;
        this.fd = fd;
        this.fusermount = fusermount;
        this.commFd = commFd;
        this.watcher = watcher;
    }

    /** The {@code /dev/fuse} descriptor the filesystem is served on. */
    public int fd() {
        return fd;
    }

    /** Whether this process may mount by {@code mount(2)}: it is root. */
    public static boolean root() {
        return Libc.C.geteuid() == 0;
    }

    /** The environment variable that names the fusermount to use, where more than one is installed. */
    public static final String FUSERMOUNT_VARIABLE = "FLUSHCHECK_FUSERMOUNT";

    /**
     * The fusermount {@value #FUSERMOUNT_VARIABLE} names; else fusermount3 or fusermount on the PATH (or in
     * /bin, /usr/bin); else null.
     */
    public static String fusermount() {
        String chosen = System.getenv(FUSERMOUNT_VARIABLE);
        if (chosen != null && !chosen.isEmpty()) {
            return chosen;
        }
        List<Path> dirs = new ArrayList<>();
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!d.isEmpty()) {
                dirs.add(Path.of(d));
            }
        }
        dirs.add(Path.of("/usr/bin"));
        dirs.add(Path.of("/bin"));
        for (String name : List.of("fusermount3", "fusermount")) {
            for (Path d : dirs) {
                Path p = d.resolve(name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }

    /**
     * Mounts a FUSE filesystem of type {@code fuse.SUBTYPE} on {@code mountPoint}: by {@code mount(2)} as root
     * (with {@code allow_other}, so that programs of other users, a server's among them, reach it), else
     * through fusermount.
     */
    public static FuseMount mount(Path mountPoint, String subtype) throws IOException {
        return root() ? mountAsRoot(mountPoint, subtype) : mountByFusermount(mountPoint, subtype);
    }

    /**
     * As {@link #mount(Path, String)}, but through fusermount wherever it is installed, root or not, for a
     * server inside a process that may be killed: fusermount's {@code auto_unmount} then removes the mount
     * however the process ends. As root without fusermount, {@code mount(2)}.
     */
    public static FuseMount mountWatched(Path mountPoint, String subtype) throws IOException {
        return mountWatched(mountPoint, subtype, "");
    }

    /**
     * As {@link #mountWatched(Path, String)}, with the mount options {@code options} too (comma-separated, such as
     * {@code default_permissions}: the kernel checks each request's permission bits, as a local filesystem does).
     */
    public static FuseMount mountWatched(Path mountPoint, String subtype, String options) throws IOException {
        return fusermount() == null && root() ? mountAsRoot(mountPoint, subtype, options)
                : mountByFusermount(mountPoint, subtype, options);
    }

    private static FuseMount mountAsRoot(Path mountPoint, String subtype) throws IOException {
        return mountAsRoot(mountPoint, subtype, "");
    }

    private static FuseMount mountAsRoot(Path mountPoint, String subtype, String extra) throws IOException {
        int fd = Libc.C.open("/dev/fuse", Libc.O_RDWR | Libc.O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("cannot open /dev/fuse: errno " + Libc.errno());
        }
        String options = "fd=" + fd + ",rootmode=40000,user_id=0,group_id=0,allow_other"
                + (extra.isEmpty() ? "" : "," + extra);
        if (Libc.C.mount("flushcheck", mountPoint.toString(), "fuse." + subtype,
                Libc.MS_NOSUID | Libc.MS_NODEV, options) != 0) {
            int errno = Libc.errno();
            Libc.C.close(fd);
            throw new IOException("cannot mount FUSE on " + mountPoint + ": errno " + errno);
        }
        return new FuseMount(mountPoint, "fuse." + subtype, fd, null, -1, -1);
    }

    private static FuseMount mountByFusermount(Path mountPoint, String subtype) throws IOException {
        return mountByFusermount(mountPoint, subtype, "");
    }

    private static FuseMount mountByFusermount(Path mountPoint, String subtype, String extra) throws IOException {
        String fusermount = fusermount();
        if (fusermount == null) {
            throw new IOException("not root, and no fusermount3 or fusermount to mount FUSE with (Debian: apt-get install"
                    + " fuse3)");
        }
        int[] pair = new int[2];
        if (Libc.C.socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) {
            throw new IOException("socketpair: errno " + Libc.errno());
        }
        // Ours must not reach fusermount: its watcher would then never see this process end.
        Libc.C.fcntl(pair[1], F_SETFD, FD_CLOEXEC);
        // As root, programs of other users (a server run as its own user) may use it too.
        String[] argv = {fusermount, "-o", "fsname=flushcheck,subtype=" + subtype + ",auto_unmount"
                + (root() ? ",allow_other" : "") + (extra.isEmpty() ? "" : "," + extra), "--", mountPoint.toString()};
        List<String> env = new ArrayList<>();
        for (Map.Entry<String, String> e : System.getenv().entrySet()) {
            if (!e.getKey().startsWith("_FUSE_")) {
                env.add(e.getKey() + "=" + e.getValue());
            }
        }
        env.add("_FUSE_COMMFD=" + pair[0]);
        int[] pid = new int[1];
        int spawned = Libc.C.posix_spawn(pid, fusermount, null, null, argv, env.toArray(new String[0]));
        Libc.C.close(pair[0]);
        if (spawned != 0) {
            Libc.C.close(pair[1]);
            throw new IOException("cannot run " + fusermount + ": errno " + spawned);
        }
        int fd = receiveFd(pair[1]);
        if (fd < 0) {
            int status = waitFor(pid[0]);
            Libc.C.close(pair[1]);
            throw new IOException(fusermount + " did not mount " + mountPoint + " (exit status " + status
                    + "; its message is above)");
        }
        // With auto_unmount, fusermount stays to watch the socket: it unmounts when the socket closes, and
        // is reaped then (unmount).
        Libc.C.fcntl(fd, F_SETFD, FD_CLOEXEC);
        return new FuseMount(mountPoint, "fuse." + subtype, fd, fusermount, pair[1], pid[0]);
    }

    /** The descriptor sent over {@code socket} with SCM_RIGHTS, or -1 when none came. */
    private static int receiveFd(int socket) {
        Memory data = new Memory(1);
        Memory iov = new Memory(16);
        iov.setPointer(0, data);
        iov.setLong(8, 1);
        Memory control = new Memory(24); // CMSG_SPACE(sizeof(int)) on LP64
        control.clear();
        Memory msg = new Memory(56); // struct msghdr on LP64
        msg.clear();
        msg.setPointer(16, iov);
        msg.setLong(24, 1);
        msg.setPointer(32, control);
        msg.setLong(40, 24);
        long n;
        do {
            n = Libc.C.recvmsg(socket, msg, 0);
        } while (n < 0 && Libc.errno() == FuseChannel.EINTR);
        if (n <= 0) {
            return -1;
        }
        long length = control.getLong(0);
        if (length < 20 || control.getInt(8) != SOL_SOCKET || control.getInt(12) != SCM_RIGHTS) {
            return -1;
        }
        return control.getInt(16);
    }

    private static int waitFor(int pid) {
        int[] status = new int[1];
        while (Libc.C.waitpid(pid, status, 0) < 0) {
            if (Libc.errno() != FuseChannel.EINTR) {
                return -1;
            }
        }
        return (status[0] >> 8) & 0xff;
    }

    /**
     * Unmounts, lazily (open files do not keep it), and confirms it from the mount table. Where fusermount
     * mounted, the socket its {@code auto_unmount} watcher watches is closed and the watcher reaped (or this
     * process would collect a zombie per disk); then, if the mount is still there, {@code fusermount -u -z}
     * unmounts it. The watcher's exit proves nothing: fuse3's unmounts only a mount whose server is gone,
     * and exits without touching one still served, as this one is.
     *
     * @throws IOException when the mount is still in the mount table afterwards
     */
    public synchronized void unmount() throws IOException {
        if (unmounted) {
            return;
        }
        String how;
        if (fusermount == null) {
            how = Libc.C.umount2(mountPoint.toString(), Libc.MNT_DETACH) == 0 ? "umount2"
                    : "umount2 (" + Libc.C.strerror(Libc.errno()) + ")";
        } else {
            if (!watcherClosed) {
                // once: a descriptor closed twice may close another's that took its number
                watcherClosed = true;
                // The watcher first, while the mount is there to find: it prints "not mounted" when it is not.
                Libc.C.close(commFd);
                reaped(watcher, WATCHER_MILLIS);
            }
            how = mounted() ? unmountByFusermount() : "fusermount's auto_unmount";
        }
        if (mounted()) {
            throw new IOException(mountPoint + " is still mounted after " + how); // a later call tries again
        }
        unmounted = true;
    }

    /** {@code fusermount -u -z -q -- MOUNTPOINT}, and how it ended when it failed. */
    private String unmountByFusermount() {
        String line = fusermount + " -u -z";
        try {
            // Quiet, and its output discarded: a wait that reads nothing cannot be held up by it.
            Process p = new ProcessBuilder(fusermount, "-u", "-z", "-q", "--", mountPoint.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return line + " (still running after 10 s)";
            }
            return p.exitValue() == 0 ? line : line + " (exit " + p.exitValue() + ")";
        } catch (IOException e) {
            return line + " (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return line + " (interrupted)";
        }
    }

    /** Whether this filesystem is still in this process's mount table at {@link #mountPoint}. */
    boolean mounted() throws IOException {
        return Mounts.mountedAt(mountPoint, type);
    }

    private static final long WATCHER_MILLIS = 5000;
    private static final int WNOHANG = 1;

    /** True once {@code pid} (a child) has ended and been reaped, within {@code millis}. */
    private static boolean reaped(int pid, long millis) {
        int[] status = new int[1];
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (true) {
            int r = Libc.C.waitpid(pid, status, WNOHANG);
            if (r == pid || r < 0 && Libc.errno() != FuseChannel.EINTR) {
                return true; // ended (or not our child any more: nothing to wait for)
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** Closes the {@code /dev/fuse} descriptor, once, after serving ended. */
    public synchronized void closeDevice() {
        if (!closed) {
            closed = true;
            Libc.C.close(fd);
        }
    }
}

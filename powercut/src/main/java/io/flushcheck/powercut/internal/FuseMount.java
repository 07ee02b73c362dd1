package io.flushcheck.powercut.internal;

import com.sun.jna.Memory;
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
 * {@code /dev/fuse} descriptor of its own; otherwise by the setuid {@code fusermount3} (or fuse 2's
 * {@code fusermount}), which opens {@code /dev/fuse}, mounts it, and passes the descriptor back over a
 * Unix socket named in {@code _FUSE_COMMFD} (SCM_RIGHTS), as libfuse does. With {@code auto_unmount},
 * fusermount keeps watching that socket and unmounts when this process dies, however it dies.
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

    private FuseMount(Path mountPoint, int fd, String fusermount, int commFd) {
        this.mountPoint = mountPoint;
        this.fd = fd;
        this.fusermount = fusermount;
        this.commFd = commFd;
    }

    /** The {@code /dev/fuse} descriptor the filesystem is served on. */
    int fd() {
        return fd;
    }

    /** True when fusermount made the mount (no root), false for {@code mount(2)}. */
    boolean unprivileged() {
        return fusermount != null;
    }

    /** Whether this process may mount by {@code mount(2)}: it is root. */
    static boolean root() {
        return Libc.C.geteuid() == 0;
    }

    /** fusermount3 or fusermount on the PATH (or in /bin, /usr/bin), or null. */
    public static String fusermount() {
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
    static FuseMount mount(Path mountPoint, String subtype) throws IOException {
        return root() ? mountAsRoot(mountPoint, subtype) : mountByFusermount(mountPoint, subtype);
    }

    private static FuseMount mountAsRoot(Path mountPoint, String subtype) throws IOException {
        int fd = Libc.C.open("/dev/fuse", Libc.O_RDWR | Libc.O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("cannot open /dev/fuse: errno " + Libc.errno());
        }
        String options = "fd=" + fd + ",rootmode=40000,user_id=0,group_id=0,allow_other";
        if (Libc.C.mount("flushcheck", mountPoint.toString(), "fuse." + subtype,
                Libc.MS_NOSUID | Libc.MS_NODEV, options) != 0) {
            int errno = Libc.errno();
            Libc.C.close(fd);
            throw new IOException("cannot mount FUSE on " + mountPoint + ": errno " + errno);
        }
        return new FuseMount(mountPoint, fd, null, -1);
    }

    private static FuseMount mountByFusermount(Path mountPoint, String subtype) throws IOException {
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
        String[] argv = {fusermount, "-o", "fsname=flushcheck,subtype=" + subtype + ",auto_unmount", "--",
                mountPoint.toString()};
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
        // With auto_unmount, fusermount stays to watch the socket and exits after the unmount; nothing here
        // waits for it (libfuse does not either): it is reaped when this process, the server, ends.
        Libc.C.fcntl(fd, F_SETFD, FD_CLOEXEC);
        return new FuseMount(mountPoint, fd, fusermount, pair[1]);
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
     * Unmounts, lazily (open files do not keep it), and closes the descriptor. Through fusermount, when
     * this process is not root; there closing the watched socket would unmount too, but only once
     * fusermount's watcher notices.
     */
    void unmount() {
        if (fusermount == null) {
            Libc.C.umount2(mountPoint.toString(), Libc.MNT_DETACH);
        } else {
            try {
                Process p = new ProcessBuilder(fusermount, "-u", "-z", "-q", "--", mountPoint.toString())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                // the watcher unmounts once the socket closes below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Libc.C.close(commFd);
        }
    }

    void closeDevice() {
        Libc.C.close(fd);
    }
}

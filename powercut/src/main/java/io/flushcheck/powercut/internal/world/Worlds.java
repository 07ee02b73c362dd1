package io.flushcheck.powercut.internal.world;

import io.flushcheck.powercut.internal.sys.Libc;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The process worlds that die with a simulated drive's power: each held by a pidfd, so that a world that
 * ended long before the cut is never mistaken for a process that reused its PID. Killing a world's first
 * process kills the world (it is the init of a PID namespace).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Worlds {

    private final List<Integer> pidfds = new ArrayList<>();
    private boolean powerGone;

    /**
     * Adds the world whose first process is {@code pid}; once the power is gone, kills it at once instead.
     *
     * @return true when it was added, false when it was killed
     * @throws IllegalStateException when the process cannot be named (gone already, or no pidfd_open)
     */
    public synchronized boolean add(int pid) {
        int fd = Libc.C.syscall(Libc.SYS_PIDFD_OPEN, pid, 0);
        if (fd < 0) {
            throw new IllegalStateException("pidfd_open(" + pid + ") failed: errno " + Libc.errno());
        }
        if (powerGone) {
            kill(fd);
            return false;
        }
        pidfds.add(fd);
        return true;
    }

    /** The power went: SIGKILL to every world, and to each one added from now on. */
    public synchronized void powerGone() {
        powerGone = true;
        for (int fd : pidfds) {
            kill(fd);
        }
        pidfds.clear();
    }

    private static void kill(int fd) {
        // ESRCH for a world that ended already: nothing to do.
        Libc.C.syscall(Libc.SYS_PIDFD_SEND_SIGNAL, fd, Libc.SIGKILL, null, 0);
        Libc.C.close(fd);
    }
}

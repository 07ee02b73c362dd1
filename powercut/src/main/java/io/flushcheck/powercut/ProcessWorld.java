package io.flushcheck.powercut;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/**
 * A program and every process it starts, in a world of their own, as a machine is: a PID namespace
 * (with its own {@code /proc}, in a mount namespace of its own) whose first process is the program, PID 1
 * there. Whatever the program starts stays in that world however it detaches itself (setsid, a double
 * fork, a daemon), so the world ends as a machine's power does: every process at once. The world ends
 * when the program exits (what it left running is killed with it), or at {@link #kill()}; once
 * {@link #waitFor} returns true or {@link #kill()} returns, each of its processes is gone and reaped, so
 * nothing of the world is left to answer a signal or hold a pid file's PID alive. Inside, {@code ps}
 * shows the world's own processes only. Like a machine's RAM, the world's {@code /dev/shm} and System V
 * IPC objects are its own, and end with it: a server killed there leaves no shared memory behind (and
 * a path under the machine's {@code /dev/shm} is not seen inside).
 *
 * <p>Made with util-linux's {@code unshare --pid --mount} and {@code setpriv --pdeathsig KILL}, so that a
 * world dies with the thread that started it (a killed JVM included). Needs root, or unprivileged user
 * namespaces (then the world has a user namespace too, in which the user is itself, and shares the
 * machine's /proc). The program's standard input is a pipe ({@link Process#getOutputStream()}); its
 * output goes where the builder says.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ProcessWorld implements AutoCloseable {

    /**
     * The world's first process: it waits at the gate until the JVM has noted its PID ({@code read} in sh
     * takes one byte at a time from a pipe, so the program reads nothing of the gate's line; 125 says it
     * never ran), mounts the world's own /proc and /dev/shm (126 when it cannot), and becomes the program.
     */
    private static final String FIRST = "read _ || exit 125; %s exec \"$@\"";
    private static final String MOUNTS = "mount -t proc -o nosuid,nodev,noexec proc /proc"
            + " && mount -t tmpfs -o nosuid,nodev,mode=1777 shm /dev/shm || exit 126;";
    /**
     * The world's parent, outside it: it starts the first process in the foreground (so that the program
     * keeps the standard input and the signal dispositions it was given) and exits with its status, once
     * the kernel has reaped it and so the whole world. Its own words ("Killed") go nowhere; the program's
     * standard error is the original one.
     */
    private static final String PARENT =
            "exec 4>&2 2>/dev/null; setpriv --pdeathsig KILL -- sh -c \"$0\" sh \"$@\" 2>&4 4>&-; exit $?";
    private static final long FIRST_PROCESS_TIMEOUT_NANOS = 10_000_000_000L;
    private static final long KILL_TIMEOUT_SECONDS = 30;

    private final Process process;
    private final ProcessHandle first;

    private ProcessWorld(Process process, ProcessHandle first) {
        this.process = process;
        this.first = first;
    }

    /** Starts {@code builder}'s command at once in a world of its own. */
    public static ProcessWorld start(ProcessBuilder builder) throws IOException {
        ProcessWorld world = held(builder);
        world.release();
        return world;
    }

    /**
     * Starts the world with its first process held at the gate, so that a simulated drive can be told to
     * kill it at a cut before the program runs a line; {@link #release()} lets it run.
     */
    static ProcessWorld held(ProcessBuilder builder) throws IOException {
        if (builder.redirectInput() != ProcessBuilder.Redirect.PIPE) {
            throw new IllegalArgumentException("a program in a world of its own reads its standard input from a pipe"
                    + " (Process.getOutputStream()), not " + builder.redirectInput());
        }
        if (builder.command().isEmpty()) {
            throw new IllegalArgumentException("no command to start");
        }
        ProcessBuilder b = new ProcessBuilder(command(builder.command()))
                .directory(builder.directory())
                .redirectOutput(builder.redirectOutput())
                .redirectError(builder.redirectError())
                .redirectErrorStream(builder.redirectErrorStream());
        b.environment().clear();
        b.environment().putAll(builder.environment());
        Process p = b.start();
        try {
            return new ProcessWorld(p, firstProcess(p));
        } catch (IOException | RuntimeException e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /**
     * The command line: setsid, so that a terminal's signals reach the world only through this JVM;
     * setpriv, so that the world dies with the thread that started it (and its first process with its
     * parent); unshare, whose PID namespace takes the parent's children, not the parent itself.
     */
    static List<String> command(List<String> argv) {
        boolean root = isRoot();
        List<String> line = new ArrayList<>(List.of("setsid", "setpriv", "--pdeathsig", "KILL",
                "unshare", "--pid", "--mount", "--ipc", "--propagation", "slave"));
        if (!root) {
            // In a user namespace of its own the user is still itself, and mount(8) refuses it a /proc.
            line.addAll(List.of("--user", "--map-current-user"));
        }
        line.addAll(List.of("--", "sh", "-c", PARENT, String.format(FIRST, root ? MOUNTS : "")));
        line.addAll(argv);
        return line;
    }

    private static boolean isRoot() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/status")).lines()
                    .filter(l -> l.startsWith("Uid:")).findFirst()
                    .map(l -> l.split("\\s+")[2].equals("0")).orElse(false);
        } catch (IOException e) {
            return false;
        }
    }

    /** The parent's one child, once it has forked it. */
    private static ProcessHandle firstProcess(Process parent) throws IOException {
        long deadline = System.nanoTime() + FIRST_PROCESS_TIMEOUT_NANOS;
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> child = parent.children().findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            if (!parent.isAlive()) {
                throw new IOException("could not make a world of its own for " + describe(parent) + ": it exited with "
                        + parent.exitValue() + errorText(parent));
            }
            Thread.onSpinWait();
        }
        throw new IOException("the world's parent made no process within 10 s");
    }

    private static String describe(Process p) {
        return p.info().commandLine().orElse("the program");
    }

    private static String errorText(Process p) {
        try {
            String s = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return s.isEmpty() ? "" : " (" + s + ")";
        } catch (IOException | RuntimeException e) {
            return ""; // the builder sent the errors elsewhere
        }
    }

    /** Lets the held program run. */
    void release() throws IOException {
        OutputStream in = process.getOutputStream();
        try {
            in.write('\n');
            in.flush();
        } catch (IOException e) {
            if (process.isAlive()) {
                throw e;
            }
            // killed at the gate: a cut came before the program ran
        }
    }

    /**
     * The JVM's handle on the world: its streams are the program's (standard input a pipe), and its exit
     * value is the program's, 128 + N when signal N ended it (137 after a cut).
     */
    public Process process() {
        return process;
    }

    /** The PID, as this JVM sees it, of the world's first process (PID 1 inside). */
    public long pid() {
        return first.pid();
    }

    /** True until the world has ended and every process of it is reaped. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the world to end; true when it did, every process of it gone and reaped. */
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        return process.waitFor(timeout, unit);
    }

    /**
     * Asks the world's first process to end (SIGTERM, which it receives only if it handles it, as PID 1
     * of its namespace: a server's clean shutdown) and waits up to {@code timeout} for the world to end;
     * kills it after that.
     *
     * @return true when the world ended by itself
     */
    public boolean terminate(long timeout, TimeUnit unit) throws InterruptedException {
        first.destroy();
        if (process.waitFor(timeout, unit)) {
            return true;
        }
        kill();
        return false;
    }

    /**
     * SIGKILL to every process of the world at once (the kernel kills a PID namespace with its first
     * process); returns when each is reaped.
     */
    public void kill() {
        first.destroyForcibly();
        try {
            if (!process.waitFor(KILL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly(); // the parent: its first process dies with it, and the world with that
                process.waitFor(KILL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #kill()}. */
    @Override
    public void close() {
        kill();
    }
}

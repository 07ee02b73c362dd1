package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apiguardian.api.API;

/**
 * A program in a {@link ProcessWorld} of its own whose stdout and stderr go to a temporary file, whose
 * tail {@link #tail} reads: what a command, its verify or a server said last, for a report. Its standard
 * input reads end of file. The file is removed on close, at the JVM's exit (a SIGINT or SIGTERM included)
 * if still there (once a world starting then has started, whose start opens the file again), and after a
 * SIGKILL by the next simulated disk made in the same temporary directory: its name carries this JVM's PID.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LoggedWorld implements AutoCloseable {

    /** How the world is started: at once ({@link ProcessWorld#start}), or dying with a disk's power ({@link SimulatedDisk#start}). */
    public interface Starter {
        ProcessWorld start(ProcessBuilder builder) throws IOException;
    }

    private final ProcessWorld world;
    private final Path log;

    private LoggedWorld(ProcessWorld world, Path log) {
        this.world = world;
        this.log = log;
    }

    /**
     * Starts {@code argv} through {@code starter}, its output to a fresh temporary file.
     *
     * @throws IOException also when the JVM is exiting: no file is made then
     */
    public static LoggedWorld start(List<String> argv, Starter starter) throws IOException {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        Path log = Path.of(System.getProperty("java.io.tmpdir"), "flushcheck-world-" + ProcessHandle.current().pid()
                + "-" + HexFormat.of().formatHex(random) + ".log");
        // Starting the program opens its log by name again (O_CREAT): the exit's removal waits for a start under
        // way, or it could remove the file before the start makes it again.
        STARTING.readLock().lock();
        try {
            if (exiting) {
                throw new IOException("the JVM is exiting: " + argv.get(0) + " is not started");
            }
            OPEN.add(log);
            try {
                Files.createFile(log, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (IOException | RuntimeException e) {
                OPEN.remove(log); // not ours: another file of that name is never removed
                throw e;
            }
            try {
                ProcessWorld w = starter.start(new ProcessBuilder(argv).redirectErrorStream(true)
                        .redirectOutput(log.toFile()));
                w.process().getOutputStream().close();
                return new LoggedWorld(w, log);
            } catch (IOException | RuntimeException e) {
                OPEN.remove(log);
                Files.deleteIfExists(log);
                throw e;
            }
        } finally {
            STARTING.readLock().unlock();
        }
    }

    /** The world. */
    public ProcessWorld world() {
        return world;
    }

    /** Waits for the world to end; true when it ended within {@code seconds}, every process of it reaped. */
    public boolean waitFor(double seconds) throws InterruptedException {
        return world.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS);
    }

    /** The program's exit code, 128 + the signal when a signal ended it. */
    public int exitCode() {
        return world.process().exitValue();
    }

    /** Ends the world: every process of it killed and reaped. */
    public void kill() {
        world.kill();
    }

    /** The last {@code lines} non-empty lines of the program's output, joined with " | ". */
    public String tail(int lines) {
        try {
            List<String> all = new ArrayList<>();
            for (String l : new String(Files.readAllBytes(log), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank()) {
                    all.add(l.strip());
                }
            }
            return String.join(" | ", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "";
        }
    }

    /** Ends the world and removes the output's file. */
    @Override
    public void close() {
        world.kill();
        delete(log);
        OPEN.remove(log);
    }

    /** The logs not closed yet, removed at the JVM's exit. */
    private static final Set<Path> OPEN = ConcurrentHashMap.newKeySet();

    private static final SecureRandom RANDOM = new SecureRandom();

    /** Held while a world starts, taken whole by the exit's removal of the logs. */
    private static final ReentrantReadWriteLock STARTING = new ReentrantReadWriteLock();
    private static volatile boolean exiting;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(LoggedWorld::removeAtExit, "flushcheck-world-logs"));
    }

    /**
     * Removes the logs not closed yet, once no world is starting (waiting at most {@code 5 s} for one that is), and
     * starts no more.
     */
    private static void removeAtExit() {
        exiting = true;
        boolean locked = false;
        try {
            locked = STARTING.writeLock().tryLock(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            OPEN.forEach(LoggedWorld::delete);
        } finally {
            if (locked) {
                STARTING.writeLock().unlock();
            }
        }
    }

    private static void delete(Path log) {
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temporary file; nothing of the user's
        }
    }
}

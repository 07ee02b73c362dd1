package io.flushcheck.cli;

import io.flushcheck.powercut.ProcessWorld;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A user's command in a {@link ProcessWorld} of its own, so that it ends whole (its daemons and session
 * leaders too) and is reaped before anything runs after it; its stdout and stderr go to a file, whose
 * tail {@link #tail} reads.
 */
final class LoggedWorld implements AutoCloseable {

    private final ProcessWorld world;
    private final Path log;

    private LoggedWorld(ProcessWorld world, Path log) {
        this.world = world;
        this.log = log;
    }

    /** Starts {@code argv} in a world that dies with {@code disk}'s power. */
    static LoggedWorld onDisk(SimulatedDisk disk, List<String> argv) throws IOException {
        return start(argv, disk::start);
    }

    /** Starts {@code argv} in a world of its own. */
    static LoggedWorld start(List<String> argv) throws IOException {
        return start(argv, ProcessWorld::start);
    }

    private interface Starter {
        ProcessWorld start(ProcessBuilder builder) throws IOException;
    }

    private static LoggedWorld start(List<String> argv, Starter starter) throws IOException {
        Path log = Files.createTempFile("flushcheck-powercut-", ".log");
        try {
            ProcessWorld w = starter.start(new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()));
            // Standard input reads end of file, as it did for a command under a shell of its own.
            w.process().getOutputStream().close();
            return new LoggedWorld(w, log);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(log);
            throw e;
        }
    }

    /** Waits for the world to end; true when it ended within {@code seconds}, every process of it reaped. */
    boolean waitFor(double seconds) throws InterruptedException {
        return world.waitFor((long) (seconds * 1000), TimeUnit.MILLISECONDS);
    }

    /** The command's exit code, 128 + the signal when a signal ended it. */
    int exitCode() {
        return world.process().exitValue();
    }

    /** Ends the world: every process of it killed and reaped. */
    void kill() {
        world.kill();
    }

    /** The last {@code lines} non-empty lines of the command's output, joined with " | ". */
    String tail(int lines) {
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

    @Override
    public void close() {
        world.kill();
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temporary file; nothing of the user's
        }
    }
}

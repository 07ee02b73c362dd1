package io.flushcheck.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A copy of a system program under a name no other process has, so that a test can find each process
 * of it in /proc, zombies included (a zombie keeps its name in {@code /proc/PID/stat}).
 */
public final class MarkedProgram {

    private final Path program;

    private MarkedProgram(Path program) {
        this.program = program;
    }

    /** {@code original} (like /bin/sh) copied into {@code dir} under a fresh name. */
    public static MarkedProgram copy(Path original, Path dir) throws IOException {
        String name = "fcw" + Long.toString(System.nanoTime() % 1_000_000_000_000L, 36);
        Path p = dir.resolve(name);
        Files.copy(original, p, StandardCopyOption.COPY_ATTRIBUTES);
        p.toFile().setExecutable(true, false);
        // Readable and runnable by whoever the world's program runs as.
        dir.toFile().setExecutable(true, false);
        return new MarkedProgram(p);
    }

    public String path() {
        return program.toString();
    }

    public String name() {
        return program.getFileName().toString();
    }

    /** Every process of this name, as "PID STATE", alive or zombie. */
    public List<String> processes() {
        List<String> found = new ArrayList<>();
        String tag = "(" + name() + ")";
        try (var s = Files.list(Path.of("/proc"))) {
            for (Path p : s.toList()) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    if (stat.substring(stat.indexOf('('), close + 1).equals(tag)) {
                        found.add(p.getFileName() + " " + stat.charAt(close + 2));
                    }
                } catch (IOException | RuntimeException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return found;
    }

    /** Waits up to {@code millis} for at least {@code n} live processes of this name. */
    public void awaitAlive(int n, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (processes().stream().filter(p -> !p.endsWith(" Z")).count() < n) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("fewer than " + n + " processes named " + name() + " after " + millis
                        + " ms: " + processes());
            }
            Thread.sleep(10);
        }
    }
}

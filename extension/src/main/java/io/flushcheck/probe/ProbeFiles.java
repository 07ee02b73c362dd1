package io.flushcheck.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names probe files and makes sure none is left behind: each live file is registered, removed
 * when its probe ends, and removed by a shutdown hook if the JVM is stopped (SIGTERM, SIGINT,
 * System.exit) while a probe runs.
 */
final class ProbeFiles {

    static final String PREFIX = ".flushcheck-";
    static final String SUFFIX = ".probe";

    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();
    private static final SecureRandom RANDOM = new SecureRandom();

    static {
        Thread hook = new Thread(ProbeFiles::removeAll, "flushcheck-probe-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    private ProbeFiles() {
    }

    /** A fresh name inside {@code dir} (already resolved); the file does not exist yet. */
    static Path newName(Path dir, String mode) {
        byte[] r = new byte[6];
        RANDOM.nextBytes(r);
        return dir.resolve(PREFIX + ProcessHandle.current().pid() + "-" + mode + "-" + HexFormat.of().formatHex(r) + SUFFIX);
    }

    /** Registers a file this process has just created exclusively, so that it is removed whatever happens. */
    static void created(Path p) {
        LIVE.add(p);
    }

    /** Removes a registered file, and forgets it. Never throws: a leftover is reported, not fatal. */
    static void remove(Path p) {
        if (!LIVE.contains(p)) {
            return;
        }
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            System.err.println("flushcheck: could not remove probe file " + p + ": " + e.getMessage());
        } finally {
            LIVE.remove(p);
        }
    }

    private static void removeAll() {
        for (Path p : LIVE) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // The JVM is going down; nothing better to do than try the others.
            }
        }
    }

    /** Files registered and not yet removed (for tests). */
    static int live() {
        return LIVE.size();
    }
}

package io.flushcheck.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Preconditions of tests that need root, a command or a service. Outside CI a missing one skips
 * the test with the reason; with {@code CI=true} it fails, so CI can never go green by skipping.
 */
public final class Requirements {

    private Requirements() {
    }

    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Skips (laptop) or fails (CI) unless {@code ok}; {@code what} names what is missing and how to get it. */
    public static void require(boolean ok, String what) {
        if (ok) {
            return;
        }
        if (inCi()) {
            fail("CI=true and this test needs " + what + "; .ci/run must provide it");
        }
        assumeTrue(false, "skipped: needs " + what);
    }

    public static void requireRoot() {
        require(isRoot(), "root (to mount filesystems)");
    }

    public static void requireCommand(String command, String debianPackage) {
        require(which(command) != null, "the '" + command + "' command (apt-get install " + debianPackage + ")");
    }

    public static boolean isRoot() {
        try {
            return "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes()).trim());
        } catch (IOException e) {
            return false;
        }
    }

    /** The command's full path on PATH, or null. */
    public static Path which(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, command);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}

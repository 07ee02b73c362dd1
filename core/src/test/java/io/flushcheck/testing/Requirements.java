package io.flushcheck.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.flushcheck.MissingTool;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Preconditions of tests that need root, a command or a service. A missing one skips the test with the reason,
 * or fails it where {@link MissingTool#KEY} is {@code fail}, as this project's CI sets it (the same key as
 * flushcheck's own features read), so that CI can never go green by skipping.
 */
public final class Requirements {

    private Requirements() {
    }

    /** True where a missing tool fails the test rather than skipping it. */
    public static boolean missingToolFails() {
        return MissingTool.current() == MissingTool.FAIL;
    }

    /** Skips, or fails where missing tools fail, unless {@code ok}; {@code what} names what is missing and how. */
    public static void require(boolean ok, String what) {
        if (ok) {
            return;
        }
        if (missingToolFails()) {
            fail("this test needs " + what + " (" + MissingTool.FAIL + "; .ci/run must provide it)");
        }
        assumeTrue(false, "skipped: needs " + what);
    }

    public static void requireRoot() {
        require(isRoot(), "root (to mount filesystems)");
    }

    /**
     * What flushcheck's file model needs to mount its tree: {@code /dev/fuse} and, without root, fusermount3 or fuse 2's
     * fusermount.
     */
    public static void requireFileModel() {
        require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        require(isRoot() || which("fusermount3") != null || which("fusermount") != null,
                "fusermount3 or fusermount (apt-get install fuse3)");
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

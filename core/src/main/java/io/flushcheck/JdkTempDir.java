package io.flushcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the JDK creates temp files in this JVM. {@code Files.createTempDirectory(prefix)} and
 * {@code File.createTempFile} use {@code java.io.tmpdir} as it was when the JVM started; setting the
 * property later (as Surefire does with its system property variables) changes the property but not
 * where the files go. Found once: from how the JVM was launched where that is certain ({@link LaunchedTempDir}),
 * else by creating a directory and looking where it landed.
 */
final class JdkTempDir {

    private static volatile Path found;

    private JdkTempDir() {
    }

    static Path get() {
        Path p = found;
        if (p == null) {
            synchronized (JdkTempDir.class) {
                if (found == null) {
                    Path launched = LaunchedTempDir.of();
                    found = launched != null ? launched : create();
                }
                p = found;
            }
        }
        return p;
    }

    private static Path create() {
        try {
            Path probe = Files.createTempDirectory(".flushcheck-tmpdir-");
            try {
                return probe.toAbsolutePath().getParent();
            } finally {
                Files.deleteIfExists(probe);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory where the JDK creates them: " + e.getMessage(), e);
        }
    }
}

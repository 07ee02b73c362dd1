package io.flushcheck.jupiter;

import io.flushcheck.BadPathException;
import io.flushcheck.Flushcheck;
import io.flushcheck.text.Escape;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** Chooses the existing directory judged for what a test writes to, and says why when it is not the one named. */
final class Targets {

    static final String DISK_ADVICE = "run on a disk directory: point java.io.tmpdir or " + FlushcheckConfig.TARGET_KEY + " at one";
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private Targets() {
    }

    /** {@code path}, else the key {@value FlushcheckConfig#TARGET_KEY}, else where the JDK creates temp files. */
    static JudgedDir configured(ConfigReader settings, String annotationPath, String what) {
        if (!annotationPath.isBlank()) {
            return named(parse(annotationPath, "path", what), what);
        }
        return settings.raw(FlushcheckConfig.TARGET_KEY)
                .map(v -> named(parse(v, FlushcheckConfig.TARGET_KEY, what), what))
                .orElseGet(Targets::jdkTempDir);
    }

    /**
     * A directory a setting or the test's code names: itself when it exists, else the nearest existing
     * ancestor, where it would be created and whose storage its data would land on.
     */
    static JudgedDir named(Path dir, String what) {
        Path absolute = dir.toAbsolutePath();
        File file = absolute.toFile();
        if (file.exists()) {
            return new JudgedDir(absolute, Escape.of(dir), List.of(), DISK_ADVICE);
        }
        Path ancestor = Flushcheck.nearestExisting(absolute);
        if (!ancestor.toFile().isDirectory()) {
            // A missing path under a regular file, or an ancestor that cannot be read: the usual sentence.
            try {
                Flushcheck.validateDirectory(dir);
            } catch (BadPathException e) {
                throw new ExtensionConfigurationException(what + ": " + Escape.of(e.getMessage()) + "; name a directory");
            }
        }
        return new JudgedDir(ancestor, Escape.of(dir), List.of(Escape.of(dir) + " does not exist yet, so its nearest existing ancestor "
                + Escape.of(ancestor) + ", where it would be created, was judged"), DISK_ADVICE);
    }

    /**
     * Where {@code Files.createTempDirectory} and {@code @TempDir} really create directories, with a note
     * (and one warning per JVM on stderr) when {@code java.io.tmpdir} now names another directory.
     */
    static JudgedDir jdkTempDir() {
        Path jdk = Flushcheck.jdkTempDir();
        String property = System.getProperty("java.io.tmpdir", "");
        if (sameDirectory(jdk, property)) {
            return new JudgedDir(jdk, Escape.of(jdk), List.of(), DISK_ADVICE);
        }
        String note = disagreement(jdk, property);
        if (WARNED.add(jdk + "\0" + property)) {
            System.err.println("flushcheck: warning: " + note);
        }
        return new JudgedDir(jdk, Escape.of(jdk), List.of(note), "set java.io.tmpdir on the test JVM's own command line"
                + " (Surefire's argLine or JAVA_TOOL_OPTIONS) to a disk directory, or point " + FlushcheckConfig.TARGET_KEY + " at one");
    }

    static String disagreement(Path jdk, String property) {
        return "the JDK creates temp files in " + Escape.of(jdk) + " (java.io.tmpdir when this JVM started), not in "
                + Escape.of(property) + ", which java.io.tmpdir names now: a property set after start-up"
                + " (Surefire's systemPropertyVariables, mvn -Djava.io.tmpdir) moves no temp file";
    }

    /** A {@code @TempDir} directory: judged by the directory it was made in, which all of a run's temp dirs share. */
    static JudgedDir tempDir(Path dir, String name) {
        Path absolute = dir.toAbsolutePath();
        Path parent = absolute.getParent() != null ? absolute.getParent() : absolute;
        // JUnit's default factory uses the JDK's temp dir: a java.io.tmpdir set later misleads here too.
        String property = System.getProperty("java.io.tmpdir", "");
        List<String> notes = parent.equals(Flushcheck.jdkTempDir()) && !sameDirectory(parent, property)
                ? List.of(disagreement(parent, property)) : List.of();
        return new JudgedDir(parent, "the @TempDir " + name + " " + Escape.of(absolute), notes,
                "give it a directory on a disk: @TempDir(factory = RealDiskTempDirFactory.class), or set java.io.tmpdir"
                        + " on the test JVM's own command line to a disk directory",
                "the @TempDir directories in " + Escape.of(parent));
    }

    private static boolean sameDirectory(Path jdk, String property) {
        if (property.isEmpty()) {
            return false;
        }
        try {
            Path p = Path.of(property).toAbsolutePath().normalize();
            if (p.equals(jdk.normalize())) {
                return true;
            }
            return p.toFile().exists() && p.toRealPath().equals(jdk.toRealPath());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Path parse(String name, String where, String what) {
        try {
            return Flushcheck.pathOf(name);
        } catch (BadPathException e) {
            throw new ExtensionConfigurationException(where + ": " + Escape.of(e.getMessage()));
        }
    }
}

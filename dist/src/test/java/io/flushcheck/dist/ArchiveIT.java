package io.flushcheck.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive a user downloads, as they would use it: unpacked with {@code tar} into a directory of its own, its
 * {@code bin/flushcheck} run through links from elsewhere, with the Java that {@code JAVA_HOME} names or the one on
 * {@code PATH}. Runs after packaging (failsafe), when the archive exists.
 */
class ArchiveIT {

    @TempDir
    static Path tmp;

    private static Path home;
    private static String version;

    @BeforeAll
    static void unpack() throws Exception {
        Path archive = Path.of(System.getProperty("flushcheck.archive"));
        version = System.getProperty("flushcheck.version");
        assertThat(archive).as("the archive the build made").isRegularFile();
        Path into = Files.createDirectory(tmp.resolve("unpacked"));
        Run tar = run(List.of("tar", "-xzf", archive.toString(), "-C", into.toString()), Map.of());
        assertThat(tar.exit()).as(tar.toString()).isZero();
        try (Stream<Path> top = Files.list(into)) {
            assertThat(top).as("one directory at the top of the archive")
                    .containsExactly(into.resolve("flushcheck-" + version));
        }
        home = into.resolve("flushcheck-" + version);
    }

    @Test
    void holdsTheLauncherTheCommandItsLibrariesAndTheLicense() throws IOException {
        assertThat(Files.getPosixFilePermissions(home.resolve("bin/flushcheck")))
                .as("bin/flushcheck executable")
                .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
        assertThat(home.resolve("LICENSE")).content().contains("Apache License", "Version 2.0");
        assertThat(home.resolve("README.md")).content().startsWith("# flushcheck " + version + "\n");
        String classPath;
        try (JarFile jar = new JarFile(home.resolve("flushcheck.jar").toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo("io.flushcheck.cli.Main");
            classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");
        }
        Set<String> named = new TreeSet<>(List.of(classPath.trim().split(" +")));
        Set<String> inLib = new TreeSet<>();
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            lib.forEach(p -> inLib.add("lib/" + p.getFileName()));
        }
        assertThat(named).as("the command jar's Class-Path")
                .contains("lib/flushcheck-core-" + version + ".jar", "lib/slf4j-nop-1.7.36.jar")
                .anyMatch(e -> e.startsWith("lib/picocli-"));
        assertThat(inLib).as("lib/: exactly the jars the command's Class-Path names").isEqualTo(named);
    }

    @Test
    void throughLinksFromAnotherDirectoryItPrintsItsVersionAndJudgesADirectory() throws IOException {
        // A relative link to an absolute one, as a user's ~/bin might hold it.
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere/bin"));
        Path absolute = Files.createSymbolicLink(tmp.resolve("elsewhere/flushcheck-absolute"),
                home.resolve("bin/flushcheck"));
        Path link = Files.createSymbolicLink(elsewhere.resolve("flushcheck"), elsewhere.relativize(absolute));
        Map<String, String> env = Map.of("JAVA_HOME", System.getProperty("java.home"));

        Run v = run(List.of(link.toString(), "--version"), env);
        assertThat(v.exit()).as(v.toString()).isZero();
        assertThat(v.out()).isEqualTo("flushcheck " + version + "\n");

        Run shm = run(List.of(link.toString(), "--json", "--require-real-flush", "/dev/shm"), env);
        assertThat(shm.exit()).as(shm.toString()).isEqualTo(1);
        assertThat(shm.out()).contains("\"verdict\": \"NO_REAL_FLUSH\"", "RAM_FILESYSTEM");

        Path dir = Files.createDirectories(Path.of("target", "probed").toAbsolutePath());
        Run probe = run(List.of(link.toString(), "--json", "--modes", "overwrite-fdatasync", "--rounds", "20",
                dir.toString()), env);
        assertThat(probe.exit()).as(probe.toString()).isZero();
        // Whatever this machine's verdict: the JSON of a judgement of that directory.
        assertThat(probe.out()).startsWith("{").contains("\"results\"", "\"path\": \"" + dir + "\"", "\"verdict\": \"");
    }

    @Test
    void runsTheJavaOfJavaHomeElseTheOneOnPath() throws IOException {
        Path marker = tmp.resolve("which-java");
        Path javaHome = fakeJava(tmp.resolve("java-home"), marker, "JAVA_HOME");
        Path onPath = fakeJava(tmp.resolve("java-on-path"), marker, "PATH");
        String path = onPath.resolve("bin") + ":" + System.getenv("PATH");

        Run withHome = run(List.of(home.resolve("bin/flushcheck").toString(), "--version"),
                Map.of("JAVA_HOME", javaHome.toString(), "PATH", path));
        assertThat(withHome.exit()).as(withHome.toString()).isZero();
        assertThat(marker).content().isEqualTo("JAVA_HOME\n");

        Run withoutHome = run(List.of(home.resolve("bin/flushcheck").toString(), "--version"), Map.of("PATH", path));
        assertThat(withoutHome.exit()).as(withoutHome.toString()).isZero();
        assertThat(withoutHome.out()).isEqualTo("flushcheck " + version + "\n");
        assertThat(marker).content().isEqualTo("JAVA_HOME\nPATH\n");
    }

    @Test
    void withoutAJavaItSaysWhereItLooked() throws IOException {
        // A PATH with the tools the launcher uses and no java.
        Path tools = Files.createDirectories(tmp.resolve("tools-without-java"));
        for (String tool : List.of("ls", "sed", "dirname")) {
            Files.copy(which(tool), tools.resolve(tool));
            tools.resolve(tool).toFile().setExecutable(true);
        }
        Run none = run(List.of(home.resolve("bin/flushcheck").toString(), "--version"),
                Map.of("PATH", tools.toString()));
        assertThat(none.exit()).as(none.toString()).isEqualTo(3);
        assertThat(none.err())
                .isEqualTo("flushcheck: no java: set JAVA_HOME to a Java 17 or later, or put its bin/ on PATH\n");

        Path notAJava = Files.createDirectories(tmp.resolve("not-a-java"));
        Run wrongHome = run(List.of(home.resolve("bin/flushcheck").toString(), "--version"),
                Map.of("PATH", tools.toString(), "JAVA_HOME", notAJava.toString()));
        assertThat(wrongHome.exit()).as(wrongHome.toString()).isEqualTo(3);
        assertThat(wrongHome.err()).startsWith("flushcheck: JAVA_HOME is " + notAJava + ", but " + notAJava
                + "/bin/java is not an executable");
    }

    /** A Java home whose bin/java appends {@code name} to {@code marker}, then runs this JVM's java. */
    private static Path fakeJava(Path dir, Path marker, String name) throws IOException {
        Path java = Files.createDirectories(dir.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho " + name + " >> '" + marker + "'\nexec '"
                + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
        java.toFile().setExecutable(true);
        return dir;
    }

    private static Path which(String tool) {
        for (String dir : System.getenv("PATH").split(":")) {
            Path p = Path.of(dir, tool);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IllegalStateException(tool + " is not on PATH");
    }

    record Run(List<String> command, int exit, String out, String err) {
        @Override
        public String toString() {
            return String.join(" ", command) + ": exit " + exit + "\nstdout: " + out + "\nstderr: " + err;
        }
    }

    /** {@code command} with the environment's JAVA_HOME and PATH replaced by {@code env}'s (no JAVA_HOME if absent). */
    private static Run run(List<String> command, Map<String, String> env) {
        try {
            Path out = Files.createTempFile(tmp, "out", ".txt");
            Path err = Files.createTempFile(tmp, "err", ".txt");
            ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            pb.environment().remove("JAVA_HOME");
            pb.environment().remove("JDK_JAVA_OPTIONS");
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(command + " still running after 120 s");
            }
            return new Run(new ArrayList<>(command), p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new AssertionError(command + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The command as a user gets it from a Maven repository: the {@code repository} jar in its place in a
 * repository's layout, beside its dependencies in theirs (the build copies them to target/repository),
 * run with {@code java -jar} and nothing else. Runs after packaging (failsafe), when the jar exists.
 */
class RepositoryJarIT {

    private static Path jar;

    @BeforeAll
    static void placeTheJarInTheRepository() throws IOException {
        Path built = Path.of(System.getProperty("flushcheck.repositoryJar"));
        Path repository = Path.of(System.getProperty("flushcheck.repository"));
        String version = System.getProperty("flushcheck.version");
        assertThat(built).as("the repository jar the build made").isRegularFile();
        Path dir = Files.createDirectories(repository.resolve("io/flushcheck/flushcheck-cli").resolve(version));
        jar = Files.copy(built, dir.resolve(built.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void everyJarItsManifestNamesIsWhereARepositoryKeepsIt() throws IOException {
        String classPath;
        try (JarFile j = new JarFile(jar.toFile())) {
            classPath = j.getManifest().getMainAttributes().getValue("Class-Path");
        }
        List<String> entries = List.of(classPath.trim().split(" +"));
        assertThat(entries).as("Class-Path").anyMatch(e -> e.contains("flushcheck-core"))
                .anyMatch(e -> e.contains("picocli")).anyMatch(e -> e.contains("sqlite-jdbc"));
        List<String> missing = new ArrayList<>();
        for (String e : entries) {
            if (!Files.isRegularFile(jar.getParent().resolve(e).normalize())) {
                missing.add(e);
            }
        }
        assertThat(missing).as("Class-Path entries with no jar at " + jar.getParent()).isEmpty();
    }

    @Test
    void everyLibraryJarNamesItsJavaModule() throws IOException {
        Path repository = Path.of(System.getProperty("flushcheck.repository"));
        String version = System.getProperty("flushcheck.version");
        Path library = Path.of(System.getProperty("flushcheck.repositoryJar").replace("-repository.jar", ".jar"));
        Map<String, Path> jars = new TreeMap<>();
        for (String module : List.of("core", "junit", "sqlite", "powercut", "postgres", "testcontainers", "vm")) {
            String artifact = "flushcheck-" + module;
            jars.put("io.flushcheck." + module, repository.resolve("io/flushcheck").resolve(artifact).resolve(version)
                    .resolve(artifact + "-" + version + ".jar"));
        }
        jars.put("io.flushcheck.cli", library);
        Map<String, String> named = new TreeMap<>();
        for (Map.Entry<String, Path> e : jars.entrySet()) {
            assertThat(e.getValue()).as("the jar of " + e.getKey()).isRegularFile();
            try (JarFile j = new JarFile(e.getValue().toFile())) {
                named.put(e.getKey(), j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"));
            }
        }
        Map<String, String> expected = new TreeMap<>();
        jars.keySet().forEach(k -> expected.put(k, k));
        assertThat(named).as("Automatic-Module-Name of each library jar").isEqualTo(expected);
    }

    @Test
    void javaDashJarOfItJudgesAPathAndRunsTheOtherCommands() {
        ChildJvm.Result probe = ChildJvm.run(List.of(ChildJvm.javaBinary(), "-jar", jar.toString(), "--json", "--require-real-flush",
                "/dev/shm"), 60);
        assertThat(probe.exit()).as(probe.stderr()).isEqualTo(1);
        assertThat(probe.stdout()).contains("\"verdict\": \"NO_REAL_FLUSH\"", "RAM_FILESYSTEM");
        // picocli and the SQLite module come from the repository too.
        ChildJvm.Result help = ChildJvm.run(List.of(ChildJvm.javaBinary(), "-jar", jar.toString(), "sqlite", "--help"), 60);
        assertThat(help.exit()).as(help.stderr()).isZero();
        assertThat(help.stdout()).contains("--journal-modes");
    }
}

package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up thread must load what a verdict decided by the storage facts loads (tmpfs, eatmydata):
 * a class added to that path and missing from {@link Warmup#classes()} would quietly put its loading
 * back into the check's time.
 */
class WarmupTests {

    @TempDir
    Path tmp;

    @Test
    void preloadsEveryClassThatATmpfsCheckLoads() throws IOException {
        Requirements.require(Files.isDirectory(Path.of("/dev/shm")), "/dev/shm (a tmpfs every Linux has)");
        assertWarmed(List.of(), List.of("--json", "--quiet", "/dev/shm"));
        assertWarmed(List.of(), List.of("--quiet", "/dev/shm"));
    }

    @Test
    void preloadsEveryClassThatAnEatmydataCheckOnTheDiskLoads() throws IOException {
        Requirements.requireCommand("eatmydata", "eatmydata");
        Path disk = Files.createDirectories(Path.of("target", "warmup-disk").toAbsolutePath());
        assertWarmed(List.of("eatmydata"), List.of("--json", "--quiet", disk.toString()));
    }

    @Test
    void onlyALineThatAsksForJsonLoadsTheJsonLibrary() throws IOException {
        Requirements.require(Files.isDirectory(Path.of("/dev/shm")), "/dev/shm (a tmpfs every Linux has)");
        assertThat(libraryClasses(GSON, List.of("--quiet", "/dev/shm"))).as("a plain check, warm-up on").isEmpty();
        assertThat(libraryClasses(GSON, List.of("--json", "--quiet", "/dev/shm"))).as("a JSON check")
                .contains(Warmup.JSON_CLASSES);
    }

    @Test
    void aLineQuickArgsReadsLoadsNoPicocli() throws IOException {
        Requirements.require(Files.isDirectory(Path.of("/dev/shm")), "/dev/shm (a tmpfs every Linux has)");
        assertThat(libraryClasses(" picocli.", List.of("--json", "--quiet", "/dev/shm"))).isEmpty();
    }

    private static final String GSON = " com.google.gson.";

    /** The classes of a library ({@code " package."}) a cold run of the command (warm-up on) loads. */
    private List<String> libraryClasses(String prefix, List<String> args) throws IOException {
        Path log = tmp.resolve("classes-" + System.nanoTime() + ".log");
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), List.of("-Xlog:class+load=info:file=" + log),
                Main.class.getName(), args), 60);
        assertThat(r.exit()).as("%s", r).isZero();
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int at = line.indexOf(prefix);
            if (at >= 0) {
                out.add(line.substring(at + 1, line.indexOf(' ', at + 1)));
            }
        }
        return out;
    }

    /** Runs the command with the warm-up off and checks that the classes its check loaded are all warmed. */
    private void assertWarmed(List<String> wrapper, List<String> args) throws IOException {
        Set<String> warmed = new LinkedHashSet<>();
        for (Class<?> c : Warmup.classes()) {
            warmed.add(c.getName());
        }
        Path log = tmp.resolve("classes-" + System.nanoTime() + ".log");
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(wrapper,
                List.of("-D" + Warmup.PROPERTY + "=false", "-Xlog:class+load=info:file=" + log),
                Main.class.getName(), args), 60);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.stdout()).as("the storage facts decide, without a probe").contains("NO_REAL_FLUSH", "NOT_PROBED");

        List<String> loadedByCheck = projectClassesFrom("io.flushcheck.storage.StorageInspector", log);
        assertThat(loadedByCheck).as("the check should start with StorageInspector").isNotEmpty();
        assertThat(warmed).as("classes the check of %s %s loads", wrapper, args).containsAll(loadedByCheck);
    }

    /** Project classes the log shows loaded from {@code first} on (lambdas and nested classes by their own names). */
    private static List<String> projectClassesFrom(String first, Path log) throws IOException {
        List<String> out = new ArrayList<>();
        boolean started = false;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            int at = line.indexOf(" io.flushcheck.");
            if (at < 0) {
                continue;
            }
            String name = line.substring(at + 1, line.indexOf(' ', at + 1));
            started |= name.equals(first);
            if (started) {
                out.add(name);
            }
        }
        return out;
    }
}

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
 * The warm-up thread must load what a tmpfs verdict loads: a class added to that path and missing
 * from {@link Warmup#classes()} would quietly put its loading back into the check's time.
 */
class WarmupTests {

    @TempDir
    Path tmp;

    @Test
    void preloadsEveryClassThatAFactDecidedCheckLoads() throws IOException {
        Requirements.require(Files.isDirectory(Path.of("/dev/shm")), "/dev/shm (a tmpfs every Linux has)");
        Set<String> warmed = new LinkedHashSet<>();
        for (Class<?> c : Warmup.classes()) {
            warmed.add(c.getName());
        }
        for (List<String> args : List.of(List.of("--json", "--quiet", "/dev/shm"), List.of("--quiet", "/dev/shm"))) {
            Path log = tmp.resolve("classes-" + args.size() + ".log");
            ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(),
                    List.of("-D" + Warmup.PROPERTY + "=false", "-Xlog:class+load=info:file=" + log),
                    Main.class.getName(), args), 60);
            assertThat(r.exit()).as("%s", r).isZero();
            assertThat(r.stdout()).contains("NO_REAL_FLUSH");

            List<String> loadedByCheck = projectClassesFrom("io.flushcheck.storage.StorageInspector", log);
            assertThat(loadedByCheck).as("the check should start with StorageInspector").isNotEmpty();
            assertThat(warmed).as("classes a tmpfs check loads (%s)", args).containsAll(loadedByCheck);
        }
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

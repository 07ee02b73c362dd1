package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.RunFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The extensions in whole JVMs whose environment a test cannot change in-process: eatmydata, java.io.tmpdir. */
class ChildJvmEnvironmentTests {

    @Test
    void eatmydataFailsTheTestNamingTheInterposer() throws Exception {
        Requirements.requireCommand("eatmydata", "eatmydata");
        Path disk = Files.createDirectories(Path.of("target", "flushcheck-it", "eatmydata").toAbsolutePath());
        ChildJvm.Result o = ChildJvm.run(ChildJvm.command(List.of("eatmydata"), List.of(), RunFixture.class.getName(),
                List.of(Fixtures.Durable.class.getName(), FlushcheckConfig.TARGET_KEY + "=" + disk)), 120);
        assertThat(o.stdout()).startsWith("FAILED durable(): @RequiresRealFlush: " + disk + " is NO_REAL_FLUSH: eatmydata is loaded in this "
                + "process (LD_PRELOAD=");
        assertThat(o.stdout()).contains("libeatmydata.so): fsync, fdatasync and O_DSYNC return without syncing "
                + "(run the tests without the interposer (unset LD_PRELOAD), or set flushcheck.on-no-real-flush=skip or warn "
                + "where that is acceptable)\n");
    }

    @Test
    void withoutEatmydataTheSameTestPasses() throws Exception {
        Path disk = Files.createDirectories(Path.of("target", "flushcheck-it", "eatmydata").toAbsolutePath());
        ChildJvm.Result o = ChildJvm.run(ChildJvm.command(List.of(), List.of(), RunFixture.class.getName(),
                List.of(Fixtures.Durable.class.getName(), FlushcheckConfig.TARGET_KEY + "=" + disk)), 120);
        assertThat(o.stdout()).isEqualTo("SUCCESSFUL durable()\n");
    }

    @Test
    void tempDirFactoryLeavesTmpfsForTheBuildDirectory(@TempDir Path project) throws Exception {
        Path target = Files.createDirectories(project.resolve("target"));
        ChildJvm.Result o = ChildJvm.run(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=/dev/shm"), RunFixture.class.getName(),
                List.of(Fixtures.WantsTempDir.class.getName())), 120, project);
        assertThat(o.stdout()).isEqualTo("SUCCESSFUL writes(Path)\n");
        assertThat(o.stderr()).contains("flushcheck: @TempDir directories go to " + target.toRealPath()
                + " because /dev/shm is NO_REAL_FLUSH (/dev/shm is on tmpfs");
        try (var s = Files.list(target)) {
            assertThat(s.map(p -> p.getFileName().toString())).as("JUnit removes the temp dir the factory made")
                    .noneMatch(n -> n.startsWith("junit-flushcheck-"));
        }
    }

    @Test
    void tempDirFactoryFailsWhenNothingFlushes() throws Exception {
        Path shmProject = Files.createTempDirectory(Path.of("/dev/shm"), "flushcheck-project");
        try {
            ChildJvm.Result o = ChildJvm.run(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=/dev/shm"), RunFixture.class.getName(),
                List.of(Fixtures.WantsTempDir.class.getName())), 120, shmProject);
            assertThat(o.stdout()).startsWith("FAILED writes(Path): ")
                    .contains(" / caused by: RealDiskTempDirFactory: no place for temp dirs really flushes: "
                            + "/dev/shm is NO_REAL_FLUSH (").contains(shmProject + " is NO_REAL_FLUSH (")
                    .contains("Set flushcheck.tempdir to a directory on a real disk.");
        } finally {
            Files.deleteIfExists(shmProject);
        }
    }

    /** Run only in child JVMs. */
    static final class Fixtures {
        private Fixtures() {
        }

        static class Durable {
            @org.junit.jupiter.api.Test
            @RequiresRealFlush
            void durable() {
            }
        }

        static class WantsTempDir {
            @org.junit.jupiter.api.Test
            void writes(@TempDir(factory = RealDiskTempDirFactory.class) Path dir) throws IOException {
                Files.writeString(dir.resolve("journal"), "x");
                if (dir.toRealPath().startsWith("/dev/shm")) {
                    throw new AssertionError("temp dir on tmpfs: " + dir);
                }
            }
        }
    }
}

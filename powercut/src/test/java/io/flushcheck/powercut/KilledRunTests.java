package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/** A JVM killed with its disk mounted leaves nothing behind: its drive's server cleans up, or the next disk does. */
@ResourceLock(SimulatedPowerLoss.LOCK)
class KilledRunTests {

    private Path base;

    @BeforeEach
    void needs() throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        base = Files.createDirectories(Path.of("/dev/shm", "flushcheck-killed-" + ProcessHandle.current().pid()));
    }

    private static void kill(Path work, String... how) {
        List<String> args = new java.util.ArrayList<>(List.of(work.toString()));
        args.addAll(List.of(how));
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of(), KilledDiskChild.class.getName(), args), 60);
        assertThat(r.exit()).as("%s", r).isEqualTo(9);
        assertThat(r.stdout()).startsWith("created ");
    }

    /** This run's mounts, loop devices (whose image lies in its drive's mount, under {@code work}) or files. */
    private static boolean left(Path work) throws IOException {
        return Files.readString(Path.of("/proc/self/mountinfo")).contains(work.toString())
                || Shell.run("losetup", "--list", "--noheadings", "--output", "BACK-FILE").contains(work.toString())
                || Files.exists(work);
    }

    @Test
    void theDrivesServerCleansUpWhenItsJvmIsKilled() throws Exception {
        Path killed = base.resolve("killed");
        try {
            kill(killed);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (left(killed) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(left(killed)).as("mounts, loop devices or files of the killed run").isFalse();
        } finally {
            Files.deleteIfExists(base);
        }
    }

    @Test
    void theNextDiskRemovesWhatAKilledJvmAndItsServerLeft() throws IOException {
        Path killed = base.resolve("killed-both");
        try {
            kill(killed, "both");
            assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).as("the killed run's filesystem is still mounted")
                    .contains(killed.toString());
            try (SimulatedDisk next = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32)
                    .create(base.resolve("next"))) {
                assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(killed.toString());
                assertThat(killed).doesNotExist();
                assertThat(next.path()).isDirectory();
            }
            assertThat(left(killed)).isFalse();
        } finally {
            Files.deleteIfExists(base);
        }
    }
}

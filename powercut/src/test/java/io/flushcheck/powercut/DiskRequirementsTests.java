package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** What a disk needs, said before anything is made: a size its mkfs accepts, and the mkfs itself. */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class DiskRequirementsTests {

    private static Throwable outcome(Event e) {
        return e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
    }

    @Test
    void aDriveSmallerThanItsFilesystemsMkfsAcceptsIsRefusedBeforeAnythingIsMade() {
        Path work = Path.of("target", "powercut", "too-small").toAbsolutePath();
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs").sizeMiB(256).create(work))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("xfs needs a drive of at least 300 MiB (mkfs.xfs refuses smaller ones), not 256 MiB");
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).fs("btrfs").sizeMiB(100).create(work))
                .hasMessageContaining("at least 109 MiB");
        assertThat(work).doesNotExist();
        assertThat(SimulatedDisk.defaultSizeBytes("xfs")).isGreaterThanOrEqualTo(SimulatedDisk.minimumSizeBytes("xfs"));
        assertThat(SimulatedDisk.defaultSizeBytes("btrfs")).isGreaterThanOrEqualTo(SimulatedDisk.minimumSizeBytes("btrfs"));
        assertThat(SimulatedDisk.defaultSizeBytes("ext4")).isEqualTo(256L << 20);

        Events events = run(Fixtures.XfsTooSmall.class);
        assertThat(outcome(events.failed().list().get(0))).hasMessageContaining("@SimulatedPowerLoss(fs = \"xfs\", sizeMiB = 256)")
                .hasMessageContaining("mkfs.xfs needs a drive of at least 300 MiB");
    }

    @Test
    void aFilesystemWithoutItsMkfsIsSkippedWithTheReasonOrFailsInCi() {
        Path work = Path.of("target", "powercut", "no-mkfs").toAbsolutePath();
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).fs("nosuchfs").sizeMiB(64).create(work))
                .hasMessage("mkfs.nosuchfs is not installed (Debian: apt-get install the package with mkfs.nosuchfs)");
        assertThat(work).doesNotExist();

        Events events = run(Fixtures.NoMkfs.class);
        if (Requirements.inCi()) {
            assertThat(outcome(events.failed().list().get(0))).hasMessageContaining("CI=true does not skip");
        } else {
            Throwable skipped = outcome(events.aborted().list().get(0));
            assertThat(skipped).hasMessageContaining("@SimulatedPowerLoss needs ");
            if (Requirements.isRoot()) {
                assertThat(skipped).hasMessageContaining("mkfs.nosuchfs");
            }
        }
    }

    static class Fixtures {

        static class XfsTooSmall {
            @Test
            @SimulatedPowerLoss(fs = "xfs", sizeMiB = 256)
            void neverRuns(SimulatedDisk disk) {
                throw new AssertionError("ran on " + disk.path());
            }
        }

        static class NoMkfs {
            @Test
            @SimulatedPowerLoss(fs = "nosuchfs")
            void neverRuns(SimulatedDisk disk) {
                throw new AssertionError("ran on " + disk.path());
            }
        }
    }
}

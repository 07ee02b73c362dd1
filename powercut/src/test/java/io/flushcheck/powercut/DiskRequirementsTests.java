package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.MissingTool;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.RunFixture;
import io.flushcheck.testing.SystemProperties;
import java.nio.file.Path;
import java.util.List;
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
    void aFilesystemWithoutItsMkfsIsSkippedWithTheReason() {
        Path work = Path.of("target", "powercut", "no-mkfs").toAbsolutePath();
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).fs("nosuchfs").sizeMiB(64).create(work))
                .hasMessage("mkfs.nosuchfs is not installed (Debian: apt-get install the package with mkfs.nosuchfs)");
        assertThat(work).doesNotExist();

        for (String policy : new String[] {null, "skip"}) {
            Events events = SystemProperties.with(MissingTool.KEY, policy, () -> run(Fixtures.NoMkfs.class));
            assertThat(events.failed().list()).as("%s=%s", MissingTool.KEY, policy).isEmpty();
            Throwable skipped = outcome(events.aborted().list().get(0));
            assertThat(skipped).hasMessageContaining("@SimulatedPowerLoss needs ");
            if (Requirements.isRoot()) {
                assertThat(skipped).hasMessageContaining("mkfs.nosuchfs");
            }
        }
    }

    @Test
    void aFilesystemWithoutItsMkfsFailsWithTheSameReasonWhereMissingToolsFail() {
        Events events = SystemProperties.with(MissingTool.KEY, "fail", () -> run(Fixtures.NoMkfs.class));
        assertThat(events.aborted().list()).isEmpty();
        assertThat(outcome(events.failed().list().get(0))).hasMessageContaining("@SimulatedPowerLoss needs ")
                .hasMessageContaining(MissingTool.KEY + "=fail");
    }

    @Test
    void ciTrueAloneStillSkips() {
        // The environment cannot be changed in this JVM: a child JVM gets CI=true and no flushcheck.missing-tool.
        ChildJvm.Result r = ChildJvm.run(ChildJvm.command(List.of("env", "CI=true"), RunFixture.class.getName(),
                List.of(Fixtures.NoMkfs.class.getName())), 120);
        assertThat(r.stdout()).as("%s", r).startsWith("ABORTED ").contains("@SimulatedPowerLoss needs ")
                .doesNotContain("FAILED");
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

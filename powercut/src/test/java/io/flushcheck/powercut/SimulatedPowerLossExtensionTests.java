package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.DiskLeftovers;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Events;

/** @SimulatedPowerLoss as a user's test meets it: run through the test kit, on real mounts. */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class SimulatedPowerLossExtensionTests {

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    static void append(Path file, String text, boolean sync) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            if (sync) {
                ch.force(true);
            }
        }
        if (sync) {
            try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            }
        }
    }

    @Test
    void aTestGetsAFreshDiskAndItsCutsAreReported() throws IOException {
        Events events = run(Fixtures.Durable.class);
        events.assertStatistics(s -> s.succeeded(2).failed(0));
        List<Map<String, String>> entries = events.reportingEntryPublished().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow().getKeyValuePairs())
                .toList();
        assertThat(entries).anySatisfy(e -> assertThat(e.get("flushcheck.powercut.1")).startsWith("FLUSHED after "));
        assertThat(entries).as("what the cut lost, by file").anySatisfy(e -> assertThat(e.get("flushcheck.powercut.1.discarded"))
                .isEqualTo("the cut discarded: log has 4 bytes, not 8: its last writes not durable, no sync of the file"
                        + " completed after them"));
        assertThat(DiskLeftovers.ofThisJvm()).as("work directories of this JVM, a mount left in one").isEmpty();
    }

    private static List<Map<String, String>> entries(Events events) {
        return events.reportingEntryPublished().stream()
                .map(e -> e.getPayload(org.junit.platform.engine.reporting.ReportEntry.class).orElseThrow().getKeyValuePairs())
                .toList();
    }

    @Test
    void theFileModelRunsTheSameTestsAndTheReportSaysWhichModelRan() throws IOException {
        Events files = run(Fixtures.DurableOnFiles.class);
        files.assertStatistics(s -> s.succeeded(2).failed(0));
        assertThat(entries(files)).anySatisfy(e -> assertThat(e.get("flushcheck.powercut.model"))
                .isEqualTo("FILE: files over FUSE, journaled rules, as ext4, xfs and btrfs: a sync of anything commits"
                        + " every earlier name change and size change, and the synced file's data; no syncfs(2) or"
                        + " sync(2) reaches it"
                        + " (FUSE_SYNCFS goes to virtiofs only)"));
        assertThat(DiskLeftovers.ofThisJvm()).as("work directories of this JVM, a mount left in one").isEmpty();
        Requirements.requireRoot();
        Events auto = run(Fixtures.Durable.class);
        assertThat(entries(auto)).anySatisfy(e -> assertThat(e.get("flushcheck.powercut.model"))
                .isEqualTo("BLOCK (AUTO: root): ext4 on a simulated drive with a volatile write cache"));
    }

    @Test
    void aFailingTestNamesItsCutsAndTheCallThatRepeatsThem() throws IOException {
        Events events = run(Fixtures.Broken.class);
        events.assertStatistics(s -> s.failed(1));
        Throwable failure = events.failed().stream().findFirst().orElseThrow()
                .getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
        assertThat(failure.getMessage()).contains("power cuts in this test: SUBSET seed 5 after ")
                .contains("(cutPower(5) repeats it)");
        assertThat(DiskLeftovers.ofThisJvm()).as("work directories of this JVM, a mount left in one").isEmpty();
    }

    @Test
    void theAnnotationPicksTheFilesystemItsDefaultSizeAndDirectIo() {
        Requirements.requireCommand("mkfs.xfs", "xfsprogs");
        run(Fixtures.XfsWithDirectIo.class).assertStatistics(s -> s.succeeded(1).failed(0));
    }

    static class Fixtures {

        @SimulatedPowerLoss(fs = "xfs", directIo = true)
        static class XfsWithDirectIo {

            @Test
            void runsOnXfsOfHalfAGibibyteWithDirectIo(SimulatedDisk disk) throws IOException {
                assertThat(Files.getFileStore(disk.path()).type()).isEqualTo("xfs");
                assertThat(Files.getFileStore(disk.path()).getTotalSpace()).isBetween(400L << 20, 512L << 20);
                assertThat(disk.directIo()).isTrue();
                append(disk.path().resolve("log"), "one\n", true);
                assertThat(Files.readString(disk.cutPower().resolve("log"))).isEqualTo("one\n");
            }
        }

        @SimulatedPowerLoss(sizeMiB = 32)
        static class Durable {

            @Test
            void syncedDataSurvives(SimulatedDisk disk) throws IOException {
                append(disk.path().resolve("log"), "one\n", true);
                append(disk.path().resolve("log"), "two\n", false);
                Path survivor = disk.cutPower();
                assertThat(Files.readString(survivor.resolve("log"))).isEqualTo("one\n");
            }

            @Test
            void eachTestStartsEmpty(SimulatedDisk disk) throws IOException {
                try (var s = Files.list(disk.path())) {
                    assertThat(s).isEmpty();
                }
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class DurableOnFiles extends Durable {
        }

        @SimulatedPowerLoss(sizeMiB = 32)
        static class Broken {

            @Test
            void expectsUnsyncedDataToSurvive(SimulatedDisk disk) throws IOException {
                append(disk.path().resolve("log"), "never synced\n", false);
                Path survivor = disk.cutPower(5);
                assertThat(survivor.resolve("log")).exists();
            }
        }
    }
}

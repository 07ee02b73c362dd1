package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * @CorruptedBlocks over the kinds beside data at rest: lost and misdirected writes, armed before the workload writes,
 * and bad sectors and transient read errors on the survivor; run through the test kit, on the file model's FUSE mounts.
 */
@Tag("junit-api")
class CorruptedBlocksKindsTests {

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(SimulatedDisk.fusermount() != null, "fusermount3 or fusermount");
    }

    /** The report entry {@code flushcheck.faults.block} of each invocation, by display name. */
    private static Map<String, String> damage(Events events) {
        Map<String, String> m = new TreeMap<>();
        for (Event e : events.reportingEntryPublished().list()) {
            String v = e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("flushcheck.faults.block");
            if (v != null) {
                m.put(FixtureRuns.name(e), v);
            }
        }
        return m;
    }

    private static String abortedWith(Event e) {
        return e.getPayload(TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow().getMessage();
    }

    @Test
    void aJournalWithChecksumsDetectsOrOutlivesEveryLostAndMisdirectedWriteAndTheEntrySaysWhatMetIt() {
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.LyingWritesChecked.class);
        events.assertStatistics(s -> s.started(5).succeeded(5));
        List<String> names = events.started().stream().map(FixtureRuns::name).toList();
        assertThat(names.subList(1, names.size())).containsExactly(
                "[2] lost write in journal bytes 0+4096",
                "[3] misdirected write in journal bytes 0+4096 to bytes 4096",
                "[4] lost write in journal bytes 4096+4096",
                "[5] misdirected write in journal bytes 4096+4096 to bytes 0");
        Map<String, String> done = damage(events);
        assertThat(done.get(names.get(1))).matches("\\d+ writes to journal bytes 0\\+4096 acknowledged and lost \\(lost write"
                + " in journal bytes 0\\+4096\\)");
        assertThat(done.get(names.get(4))).matches("\\d+ writes to journal bytes 4096\\+4096 acknowledged and made at bytes"
                + " 0\\+4096 of journal instead \\(misdirected write in journal bytes 4096\\+4096 to bytes 0\\)");
        assertThat(Fixtures.OUTCOMES.get(0)).isEqualTo(ReadBack.Outcome.INTACT);
        assertThat(Fixtures.OUTCOMES.subList(1, Fixtures.OUTCOMES.size())).as("each lie detected by the checksums")
                .isSubsetOf(ReadBack.Outcome.DETECTED, ReadBack.Outcome.INTACT).contains(ReadBack.Outcome.DETECTED);
    }

    @Test
    void aLostWriteOfASyncedRecordIsSilentLossForAStoreThatDoesNotVerifyItsRecords() {
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.LostWritesPlain.class);
        events.assertStatistics(s -> s.started(4).succeeded(1).failed(3));
        assertThat(Fixtures.OUTCOMES).containsExactly(ReadBack.Outcome.INTACT, ReadBack.Outcome.SILENT_LOSS,
                ReadBack.Outcome.SILENT_LOSS, ReadBack.Outcome.SILENT_LOSS);
        String m = message(events.failed().list().get(1));
        assertThat(m).startsWith("2 writes to log bytes 4096+4096 acknowledged and lost: the reader returned 1 records,"
                + " 3 were acknowledged").contains("no error")
                .contains("to repeat only this invocation: @CorruptedBlocks(block = \"lost write in log bytes 4096+4096\")");
    }

    @Test
    void aLyingWriteNoWriteMeetsAbortsItsInvocationSayingSo() {
        Events events = run(Fixtures.LyingWritesChecked.class,
                Map.of(CorruptedBlocks.BLOCK_PARAMETER, "lost write in journal bytes 65536+4096"));
        events.assertStatistics(s -> s.started(1).aborted(1));
        assertThat(abortedWith(events.aborted().list().get(0))).isEqualTo("lost write in journal bytes 65536+4096 not done:"
                + " no write reached journal bytes 65536+4096 in this run");
    }

    @Test
    void onExt4EachLyingWriteIsPlacedWhereTheListingRunLeftTheBlockOnTheDriveAndTheChecksumsDetectIt() {
        io.flushcheck.testing.Mounts.requireMountTools();
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.LyingWritesOnExt4.class);
        events.assertStatistics(s -> s.started(5).succeeded(5));
        Map<String, String> done = damage(events);
        assertThat(done.get("[2] lost write in journal bytes 0+4096")).matches("\\d+ writes to journal bytes 0\\+4096"
                + " acknowledged and lost \\(drive bytes [\\d+, ]+\\) \\(lost write in journal bytes 0\\+4096\\)");
        assertThat(done.get("[5] misdirected write in journal bytes 4096+4096 to bytes 0")).matches("\\d+ writes to journal"
                + " bytes 4096\\+4096 acknowledged and made at bytes 0\\+4096 of journal instead \\(drive bytes [\\d+, ]+\\)"
                + " \\(.*\\)");
        assertThat(Fixtures.OUTCOMES).containsExactly(ReadBack.Outcome.INTACT, ReadBack.Outcome.DETECTED,
                ReadBack.Outcome.DETECTED, ReadBack.Outcome.DETECTED, ReadBack.Outcome.DETECTED);
    }

    @Test
    void onExt4APinnedLyingWriteRunsTheListingRunFirstToFindItsPlace() {
        io.flushcheck.testing.Mounts.requireMountTools();
        Events events = run(Fixtures.LyingWritesOnExt4.class,
                Map.of(CorruptedBlocks.BLOCK_PARAMETER, "lost write in journal bytes 4096+4096"));
        events.assertStatistics(s -> s.started(2).succeeded(2));
        assertThat(events.started().stream().map(FixtureRuns::name)).containsExactly(
                "[1] nothing damaged, listing the blocks", "[2] lost write in journal bytes 4096+4096");
    }

    @Test
    void onBtrfsALyingWriteAbortsBeforeTheTestRunsSayingWhy() {
        io.flushcheck.testing.Mounts.requireMountTools();
        Requirements.require(io.flushcheck.powercut.internal.kernel.Filesystems.find("mkfs.btrfs") != null,
                "mkfs.btrfs (apt-get install btrfs-progs)");
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.LyingWritesOnBtrfs.class);
        events.assertStatistics(s -> s.started(3).succeeded(1).aborted(2));
        assertThat(Fixtures.OUTCOMES).as("the test method ran only in the listing invocation").hasSize(1);
        for (Event e : events.aborted().list()) {
            assertThat(abortedWith(e)).as(FixtureRuns.name(e)).contains(" not armed: btrfs writes a changed block to a"
                    + " new place (copy on write)");
        }
    }

    /**
     * Whether this disk fails a read of a survivor's file as {@link SimulatedDisk#failReads} asks: arms a bad sector on
     * a synced file after a cut and reads it. Null when it does, the reason when not.
     */
    static String survivorReadsCannotFail(Path dir) throws IOException {
        try (SimulatedDisk disk = TestDisks.files(dir)) {
            Files.write(disk.path().resolve("f"), new byte[4096]);
            try (var c = java.nio.channels.FileChannel.open(disk.path().resolve("f"), java.nio.file.StandardOpenOption.WRITE)) {
                c.force(true);
            }
            Path survivor = disk.cutPower();
            try {
                disk.failReads(ReadFault.toFile(survivor.resolve("f")).range(0, 4096));
            } catch (RuntimeException e) {
                return "failReads on a survivor's file throws " + e;
            }
            try {
                Files.readAllBytes(survivor.resolve("f"));
                return "failReads on a survivor's file returned, and its read succeeded";
            } catch (IOException e) {
                return null;
            }
        }
    }

    @Test
    void aBadSectorOrATransientReadErrorOnTheSurvivorIsDetectedByAJournalThatReadsItsBlocks() throws IOException {
        String cannot = survivorReadsCannotFail(tmp);
        Assumptions.assumeTrue(cannot == null, () -> "the survivor's reads cannot be failed yet: " + cannot);
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.ReadFaultsChecked.class);
        events.assertStatistics(s -> s.started(5).succeeded(5));
        Map<String, String> done = damage(events);
        assertThat(done.get("[2] bad sector in journal bytes 0+4096")).startsWith("every read of journal bytes 0+4096 fails"
                + " with EIO until rewritten");
        assertThat(done.get("[3] transient read error in journal bytes 0+4096")).startsWith("the first read of journal"
                + " bytes 0+4096 fails with EIO");
        assertThat(Fixtures.OUTCOMES.subList(1, Fixtures.OUTCOMES.size())).containsOnly(ReadBack.Outcome.DETECTED);
    }

    @Test
    void whileTheSurvivorsReadsCannotBeFailedEachReadFaultAbortsItsInvocationSayingWhy() throws IOException {
        String cannot = survivorReadsCannotFail(tmp);
        Assumptions.assumeTrue(cannot != null, "the survivor's reads can be failed: the sweep runs them");
        Events events = run(Fixtures.ReadFaultsChecked.class);
        events.assertStatistics(s -> s.started(5).succeeded(1).aborted(4));
        for (Event e : events.aborted().list()) {
            assertThat(abortedWith(e)).as(FixtureRuns.name(e)).startsWith(FixtureRuns.name(e).replaceFirst("^\\[\\d] ", "")
                    + " not done: the survivor's reads cannot be failed: ");
        }
    }

    static class Fixtures {
        static final List<ReadBack.Outcome> OUTCOMES = new CopyOnWriteArrayList<>();

        static void journal(SimulatedDisk disk) throws Exception {
            AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
            LineJournal.append(disk.path().resolve("journal"), CorruptedBlocksTests.RECORDS, true, acks);
            Path survivor = disk.cutPower();
            ReadBack read = acks.readBack(() -> LineJournal.read(survivor.resolve("journal"), true));
            OUTCOMES.add(read.outcome());
            read.assertNotSilent();
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class LyingWritesChecked {
            // tag::lying-writes[]
            @CorruptedBlocks(kinds = {BlockDamage.LOST_WRITE, BlockDamage.MISDIRECTED_WRITE}, times = 5, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                AcknowledgedRecords acks = AcknowledgedRecords.on(disk);   // the lie is armed before this runs
                LineJournal.append(disk.path().resolve("journal"), CorruptedBlocksTests.RECORDS, true, acks);
                Path survivor = disk.cutPower();
                ReadBack read = acks.readBack(() -> LineJournal.read(survivor.resolve("journal"), true));
                OUTCOMES.add(read.outcome());
                read.assertNotSilent();
            }
            // end::lying-writes[]
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 32)
        static class LyingWritesOnExt4 {
            @CorruptedBlocks(kinds = {BlockDamage.LOST_WRITE, BlockDamage.MISDIRECTED_WRITE}, times = 5, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                journal(disk);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, fs = "btrfs", sizeMiB = 128)
        static class LyingWritesOnBtrfs {
            @CorruptedBlocks(kinds = BlockDamage.LOST_WRITE, times = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                journal(disk);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class ReadFaultsChecked {
            @CorruptedBlocks(kinds = {BlockDamage.BAD_SECTOR, BlockDamage.TRANSIENT_READ}, times = 5, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                journal(disk);
            }
        }

        /** Three records, each in a 4 KiB slot of its own, read without verification up to the first empty slot. */
        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class LostWritesPlain {
            @CorruptedBlocks(kinds = BlockDamage.LOST_WRITE, times = 4)
            void noRecordIsSilentlyLost(SimulatedDisk disk) throws Exception {
                Path log = disk.path().resolve("log");
                SlotLogs.create(log, 3);
                AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
                for (int n = 0; n < 3; n++) {
                    SlotLogs.PLAIN.append(log, n, "record " + (n + 1));
                    acks.add("record " + (n + 1));
                }
                Path survivor = disk.cutPower();
                ReadBack read = acks.readBack(() -> SlotLogs.PLAIN.read(survivor.resolve("log")));
                OUTCOMES.add(read.outcome());
                read.assertNotSilent();
            }
        }
    }

}

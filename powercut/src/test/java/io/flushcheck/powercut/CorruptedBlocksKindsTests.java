package io.flushcheck.powercut;

import static io.flushcheck.powercut.CorruptedBlocksRuns.damage;
import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
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
        CorruptedBlocksRuns.requireFuse();
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
     * A bad sector fails the journal's read. A transient error fails one read, the kernel's: a buffered read first
     * reads ahead (the FUSE server sees READ 0+8192 and fails it), ignores the read-ahead's error, and reads each page
     * again on its own (READ 0+4096, READ 4096+4096), as Linux's filemap_read does for any filesystem; the retry
     * succeeds, so the journal reads every record. The entry says that one read failed.
     */
    @Test
    void aBadSectorIsDetectedByAJournalThatReadsItsBlocksAndATransientErrorIsMetByTheKernelsReadAheadAndReadAgain() {
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.ReadFaultsChecked.class);
        events.assertStatistics(s -> s.started(5).succeeded(5));
        Map<String, String> done = damage(events);
        List<String> names = events.started().stream().map(FixtureRuns::name).toList();
        assertThat(names.subList(1, names.size())).containsExactly(
                "[2] bad sector in journal bytes 0+4096", "[3] transient read error in journal bytes 0+4096",
                "[4] bad sector in journal bytes 4096+4096", "[5] transient read error in journal bytes 4096+4096");
        assertThat(done.get(names.get(1))).matches("every read of journal bytes 0\\+4096 fails with EIO until rewritten;"
                + " [2-9] reads failed \\(.*\\)");
        for (int i : new int[] {2, 4}) {
            assertThat(done.get(names.get(i))).as(names.get(i)).startsWith("the first read of journal bytes "
                    + (i == 2 ? "0" : "4096") + "+4096 that reaches the drive fails with EIO; 1 read failed (");
        }
        assertThat(Fixtures.OUTCOMES.subList(1, Fixtures.OUTCOMES.size())).as("bad sector, transient, bad sector,"
                + " transient").containsExactly(ReadBack.Outcome.DETECTED, ReadBack.Outcome.INTACT,
                ReadBack.Outcome.DETECTED, ReadBack.Outcome.INTACT);
    }

    /** Read with O_DIRECT, each read goes to the drive once: there a transient error fails the journal's read. */
    @Test
    void aTransientReadErrorIsDetectedByAJournalThatReadsWithODirect() {
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.TransientReadsDirect.class);
        events.assertStatistics(s -> s.started(3).succeeded(3));
        Map<String, String> done = damage(events);
        assertThat(done.remove("[1] nothing damaged, listing the blocks")).isNotNull();
        assertThat(done).hasSize(2).allSatisfy((name, entry) -> assertThat(entry).as(name).contains("; 1 read failed ("));
        assertThat(Fixtures.OUTCOMES).containsExactly(ReadBack.Outcome.INTACT, ReadBack.Outcome.DETECTED,
                ReadBack.Outcome.DETECTED);
    }

    static class Fixtures {
        static final List<ReadBack.Outcome> OUTCOMES = new CopyOnWriteArrayList<>();

        static void journal(SimulatedDisk disk) throws Exception {
            CorruptedBlocksRuns.journal(disk, true, OUTCOMES);
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class LyingWritesChecked {
            // tag::lying-writes[]
            @CorruptedBlocks(kinds = {BlockDamage.LOST_WRITE, BlockDamage.MISDIRECTED_WRITE}, times = 5, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                AcknowledgedRecords acks = AcknowledgedRecords.on(disk);   // the lie is armed before this runs
                LineJournal.append(disk.path().resolve("journal"), CorruptedBlocksRuns.RECORDS, true, acks);
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

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class TransientReadsDirect {
            @CorruptedBlocks(kinds = BlockDamage.TRANSIENT_READ, times = 3, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
                LineJournal.append(disk.path().resolve("journal"), CorruptedBlocksRuns.RECORDS, true, acks);
                Path survivor = disk.cutPower();
                ReadBack read = acks.readBack(() -> LineJournal.readDirect(survivor.resolve("journal"), true));
                OUTCOMES.add(read.outcome());
                read.assertNotSilent();
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

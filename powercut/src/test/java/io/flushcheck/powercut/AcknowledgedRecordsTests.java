package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The assertion a failing sync needs: which acknowledged records a cut lost, and which of them the program
 * acknowledged after the drive had said no; on ext4 (the real kernel's reaction) and on the file model.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class AcknowledgedRecordsTests {

    private static final int RECORDS = 6;

    @TempDir
    Path tmp;

    /** Six records on a journal whose syncs fail from record 3's on; the acknowledgements. */
    private static AcknowledgedRecords journal(SimulatedDisk disk, boolean carriesOn) throws IOException {
        AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
        SyncedJournal journal = SyncedJournal.create(disk.path().resolve("journal"), carriesOn);
        try {
            for (int i = 1; i <= RECORDS; i++) {
                if (i == 3) {
                    disk.failFlushes(FaultPlan.flushesAfter(disk.flushes()));
                }
                journal.append("record " + i);
                acks.add("record " + i);
            }
        } catch (IOException stopped) {
            // acknowledges nothing more
        }
        return acks;
    }

    private static List<String> survivors(SimulatedDisk disk) throws IOException {
        return SyncedJournal.read(disk.cutPower().resolve("journal"));
    }

    private SimulatedDisk ext4() throws IOException {
        return TestDisks.ext4(tmp);
    }

    @Test
    void onExt4TheJournalThatCarriesOnFailsNamingTheRecordsItAcknowledgedAfterTheFailedSync() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            AcknowledgedRecords acks = journal(disk, true);
            assertThat(acks.afterFirstFailure()).containsExactly("record 3", "record 4", "record 5", "record 6");
            List<String> survived = survivors(disk);
            assertThatThrownBy(() -> acks.assertDurable(survived)).isInstanceOf(AssertionError.class)
                    .hasMessageStartingWith("4 of 6 acknowledged records did not survive the cut: record 3, record 4,"
                            + " record 5, record 6; all of them acknowledged after the drive had failed a sync (record 3,"
                            + " record 4, record 5, record 6): the program carried on after its storage reported an error;"
                            + " the cut discarded: journal has 18 bytes, not ")
                    // how far the journal got after the failed sync varies: ext4 stops taking writes at some point
                    .hasMessageContaining(": its last writes not durable, no sync of the file completed after them");
        }
    }

    @Test
    void onExt4TheJournalThatStopsPasses() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            AcknowledgedRecords acks = journal(disk, false);
            assertThat(acks.all()).containsExactly("record 1", "record 2");
            assertThat(acks.afterFirstFailure()).isEmpty();
            acks.assertDurable(survivors(disk));
        }
    }

    @Test
    void aRecordLostWithoutAnyFailureIsNamedWithoutBlamingAFailedSync() throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("files"))) {
            AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
            Files.writeString(disk.path().resolve("unsynced"), "x"); // acknowledged without a sync
            acks.add("x");
            List<String> survived = Files.exists(disk.cutPower().resolve("unsynced")) ? List.of("x") : List.of();
            assertThatThrownBy(() -> acks.assertDurable(survived)).isInstanceOf(AssertionError.class)
                    .hasMessage("1 of 1 acknowledged records did not survive the cut: x; the cut discarded:"
                            + " create unsynced, no sync after it; 1 bytes at offset 0 of unsynced, file not synced");
        }
    }

    @Test
    void aWriteAndRenameStoreWithoutAnySyncFailsNamingTheFileAndTheMissingSync() throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).rules(FileRules.POSIX)
                .create(tmp.resolve("files"))) {
            AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
            Files.createDirectory(disk.path().resolve("data"));
            for (int i = 1; i <= 4; i++) { // write config.tmp, rename it over config: no fsync, no directory fsync
                Files.writeString(disk.path().resolve("data/config.tmp"), "version " + i);
                Files.move(disk.path().resolve("data/config.tmp"), disk.path().resolve("data/config"),
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                acks.add("version " + i);
            }
            Path config = disk.cutPower().resolve("data/config");
            List<String> survived = Files.exists(config) ? List.of(Files.readString(config)) : List.of();
            assertThat(disk.cuts().get(0).discarded()).contains(
                    "rename config.tmp -> config in data, directory not synced",
                    "9 bytes at offset 0 of data/config.tmp, file not synced");
            assertThatThrownBy(() -> acks.assertDurable(survived)).isInstanceOf(AssertionError.class)
                    .hasMessageStartingWith("4 of 4 acknowledged records did not survive the cut: version 1, version 2,"
                            + " version 3, version 4; the cut discarded: mkdir data, directory not synced;"
                            + " create data/config.tmp, directory not synced;"
                            + " 9 bytes at offset 0 of data/config.tmp, file not synced;")
                    .hasMessageEndingWith(", and 8 more");
        }
    }

    /**
     * A line of a watched file seen only after two more syncs (as a program's next sync can come before its line
     * is read) counts from the flushes completed when it was written: the state after the sync before it must keep
     * it. A line the drive's readings never held (written after the last flush) counts from when it was noted.
     */
    @Test
    void aWatchedLineSeenLateCountsFromTheFlushesCompletedWhenItWasWritten() throws Exception {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Path file = Files.createFile(tmp.resolve("acks.txt"));
        long[] before = new long[1];
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("files"))) {
            CrashStates states = disk.recordCrashStates(acks -> {
                acks.watchFile(file);
                Path data = disk.path().resolve("data");
                try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(data,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
                    c.force(true);
                    before[0] = disk.flushes();
                    Files.writeString(file, "one\n", java.nio.file.StandardOpenOption.APPEND);
                    c.force(true);
                    c.force(true);
                    acks.addLine("one", 4); // seen two syncs late
                    Files.writeString(file, "two\n", java.nio.file.StandardOpenOption.APPEND);
                    acks.addLine("two", 8);
                }
            });
            AcknowledgedRecords acks = states.acknowledged();
            assertThat(acks.acknowledgedBy(before[0] - 1)).isEmpty();
            assertThat(acks.acknowledgedBy(before[0])).as("written after flush " + before[0]).containsExactly("one");
            assertThat(acks.acknowledgedBy(before[0] + 1)).containsExactly("one");
            assertThat(acks.acknowledgedBy(before[0] + 2)).containsExactly("one", "two");
            assertThatThrownBy(() -> disk.untilPowerCut(a -> a.watchFile(disk.path().resolve("data"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is on the simulated disk itself");
        }
    }

    /**
     * A line of a watched file written before an armed cut and noted only after the power went counts from the
     * flushes completed when it was written, as a reading held it; a line written after the cut is noted apart.
     */
    @Test
    void aWatchedLineNotedAfterTheCutCountsWhenAReadingHeldIt() throws Exception {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Path file = Files.createFile(tmp.resolve("acks-cut.txt"));
        long[] before = new long[1];
        boolean[] poweredWhenNoted = new boolean[1];
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("cut"))) {
            AcknowledgedRecords acks = disk.untilPowerCut(a -> {
                a.watchFile(file);
                Path data = disk.path().resolve("data");
                try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(data,
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
                    c.force(true);
                    before[0] = disk.flushes();
                    disk.cutAfterFlushes(before[0] + 1);
                    Files.writeString(file, "one\n", java.nio.file.StandardOpenOption.APPEND);
                    c.force(true); // the flush the cut comes at: its reading holds "one"
                    poweredWhenNoted[0] = disk.powered();
                    a.addLine("one", 4);
                    Files.writeString(file, "two\n", java.nio.file.StandardOpenOption.APPEND);
                    a.addLine("two", 8);
                }
            });
            assertThat(poweredWhenNoted[0]).as("the power went at the armed flush").isFalse();
            assertThat(acks.all()).containsExactly("one");
            assertThat(acks.acknowledgedBy(before[0] - 1)).isEmpty();
            assertThat(acks.acknowledgedBy(before[0])).containsExactly("one");
            assertThat(acks.afterPowerCut()).containsExactly("two");
        }
    }
}

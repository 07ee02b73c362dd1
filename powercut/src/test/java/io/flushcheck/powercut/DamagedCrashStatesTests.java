package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash states checked with damaged blocks ({@link CrashStates#damaged}): a journal whose records carry CRCs passes
 * every damaged state when its check is "nothing comes back wrong without an error", one without CRCs fails in damaged
 * states, each failure naming the state and the damage; and a damage reaches neither the state's own check undamaged
 * nor any later state, on the file model and on ext4.
 */
class DamagedCrashStatesTests {

    /** 40 records of about 18 bytes: 700 bytes of journal, two blocks of 512, four (block, kind) pairs. */
    static final List<String> RECORDS = IntStream.range(0, 40).mapToObj(i -> "record " + i + " of 40").toList();

    @TempDir
    Path tmp;

    /** The journal's records appended one by one, each synced, recorded as crash states. */
    static CrashStates record(SimulatedDisk disk, boolean checked) throws Exception {
        return disk.recordCrashStates(acks -> LineJournal.append(disk.path().resolve("journal"), RECORDS, checked, acks));
    }

    /**
     * The check "no record comes back wrong without an error": what the journal's reader returns, judged against what
     * must survive, with any acknowledged record allowed (a state may keep more than it must); a reader that throws
     * has detected the damage.
     */
    static CrashStates.Verification noSilentCorruption(CrashStates states, boolean checked) {
        return (survivor, mustSurvive) -> {
            List<String> read;
            try {
                read = LineJournal.read(survivor.resolve("journal"), checked);
            } catch (NoSuchFileException e) {
                read = List.of();
            } catch (IOException e) {
                return; // detected
            }
            ReadBack r = AcknowledgedRecords.judge(mustSurvive, states.acknowledged().all(), read, "");
            if (r.outcome() == ReadBack.Outcome.SILENT_CORRUPTION) {
                throw new AssertionError(r.explanation());
            }
        };
    }

    @Test
    void aJournalWithCrcsPassesEveryDamagedStateOnTheFileModel() throws Exception {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            // tag::damaged-crash-states[]
            CrashStates states = disk.recordCrashStates(acknowledged ->   // a CRC a record, each record synced
                    LineJournal.append(disk.path().resolve("journal"), RECORDS, true, acknowledged));
            CrashStateReport report = states
                    .damaged(List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED), 512, 4, 7)  // 4 blocks a state
                    .check(1000, (survivor, mustSurvive) -> {
                        List<String> read;
                        try {
                            read = LineJournal.read(survivor.resolve("journal"), true);
                        } catch (IOException e) {
                            return;                                   // the reader noticed the damage: detected
                        }
                        ReadBack r = AcknowledgedRecords.judge(mustSurvive, states.acknowledged().all(), read, "");
                        assertNotEquals(ReadBack.Outcome.SILENT_CORRUPTION, r.outcome(), r.explanation());
                    });
            report.assertPassed();
            // end::damaged-crash-states[]
            System.out.println("with CRCs: " + report);
            assertThat(report.damagedChecks()).as("each state with data damaged up to 4 times")
                    .isGreaterThan(report.checked()).isLessThanOrEqualTo(4L * report.checked());
        }
    }

    @Test
    void aJournalWithoutCrcsFailsNamingTheStateAndTheDamage() throws Exception {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            CrashStates states = record(disk, false);
            CrashStateReport report = states.damaged(List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED), 512, 4, 7)
                    .check(1000, noSilentCorruption(states, false));
            System.out.println("without CRCs: " + report);
            assertThat(report.failures()).as("damaged states return changed records").isNotEmpty()
                    .allMatch(f -> f.damage() != null, "every failure has a damage: undamaged, every state passes");
            CrashStateReport.Failure f = report.failures().get(0);
            assertThat(f.what()).matches("(after|before) .*, with (bit [0-7] of byte \\d+ of journal flipped"
                    + "|bytes \\d+\\+\\d+ of journal zeroed)");
            assertThat(f.damage().toString()).matches("(bit rot in journal bytes \\d+\\+512, seed \\d+|zeroed in journal"
                    + " bytes \\d+\\+512)");
            assertThat(f.message()).contains("returned never acknowledged");
            Throwable thrown = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, report::assertPassed);
            System.out.println(thrown.getMessage());
            assertThat(thrown.getMessage()).contains(" with a damaged block; ").contains(f.what() + ": ")
                    .contains("to repeat only this damage: the same recording and check, with damaged(DamagedBlock.parse(\""
                            + f.damage() + "\"))");
            // Checked again with that damage alone, the same state fails the same way.
            CrashStateReport again = states.damaged(f.damage()).check(1000, noSilentCorruption(states, false));
            assertThat(again.failures()).extracting(CrashStateReport.Failure::what).contains(f.what());
        }
    }

    /** The journal with every record: a state's journal holds its first bytes. */
    static final byte[] WHOLE = String.join("", RECORDS.stream().map(r -> r + "\n").toList())
            .getBytes(StandardCharsets.UTF_8);

    /**
     * The journal's exact bytes: the first bytes of {@link #WHOLE}, whole lines, at least those that must survive,
     * whatever the state kept; else it fails saying in which blocks of 512 bytes it differs. Any damage breaks it (a
     * flipped bit changes a character, zeros are no text); a damage that reached the state's check undamaged, or a
     * later state, fails a check without damage; damages not undone between two damaged checks make one differ in
     * two blocks.
     */
    static void exactJournal(Path survivor, List<String> mustSurvive) throws IOException {
        Path journal = survivor.resolve("journal");
        byte[] bytes = Files.exists(journal) ? Files.readAllBytes(journal) : new byte[0];
        if (bytes.length > WHOLE.length) {
            throw new AssertionError("the journal holds " + bytes.length + " bytes, more than " + WHOLE.length);
        }
        java.util.SortedSet<Integer> differ = new java.util.TreeSet<>();
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != WHOLE[i]) {
                differ.add(i / 512);
            }
        }
        if (!differ.isEmpty()) {
            throw new AssertionError("the journal differs from the records in " + differ.size() + " block(s) of 512: "
                    + differ);
        }
        if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') {
            throw new AssertionError("the journal ends in a partial line after " + bytes.length + " bytes");
        }
        long kept = IntStream.range(0, bytes.length).filter(i -> bytes[i] == '\n').count();
        assertThat(kept).as("records kept").isGreaterThanOrEqualTo(mustSurvive.size());
    }

    /** Every damaged check fails seeing its one damage, no check undamaged fails. */
    static void assertNoDamageLeaked(CrashStateReport report) {
        assertThat(report.damagedChecks()).isPositive();
        assertThat(report.failures()).as("undamaged checks failing: a damage leaked")
                .filteredOn(f -> f.damage() == null).isEmpty();
        assertThat((long) report.failing()).as("every damaged check sees its damage").isEqualTo(report.damagedChecks());
        assertThat(report.failures()).as("each damaged check sees its own damage alone")
                .allMatch(f -> f.message().contains("differs from the records in 1 block(s)"), "one block damaged");
    }

    @Test
    void noDamageReachesTheStateUndamagedNorTheNextStateOnTheFileModel() throws Exception {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            CrashStates states = record(disk, false);
            states.check(1000, DamagedCrashStatesTests::exactJournal).assertPassed(); // undamaged, every state is exact
            CrashStateReport report = states.damaged(List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED), 512, 3, 11)
                    .check(1000, DamagedCrashStatesTests::exactJournal);
            System.out.println("file model, exact journal: " + report);
            assertNoDamageLeaked(report);
        }
    }

    @Test
    void noDamageReachesTheStateUndamagedNorTheNextStateOnExt4() throws Exception {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            CrashStates states = record(disk, false);
            CrashStateReport report = states.damaged(List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED), 512, 2, 11)
                    .inParallel(2).check(30, DamagedCrashStatesTests::exactJournal);   // each worker its own image
            System.out.println("ext4, exact journal: " + report + "; load "
                    + Files.readString(Path.of("/proc/loadavg")).trim());
            assertNoDamageLeaked(report);
            assertThat(report.failures()).allMatch(f -> f.done().matches("(bit [0-7] of byte \\d+ of journal flipped"
                    + " \\(drive byte \\d+\\)|bytes \\d+\\+\\d+ of journal zeroed \\(drive bytes \\d+\\+\\d+\\))"), "placed in the image");
        }
    }

    /**
     * A block in a hole of a sparse file has no bytes of the file's own on the drive: no state can be checked with it
     * damaged, and the report counts it, not checked, in its words.
     */
    @Test
    void aDamagedBlockInAHoleIsCountedNotPlacedAndTheReportSaysSo() throws Exception {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            CrashStates states = disk.recordCrashStates(acks -> {
                try (java.nio.channels.FileChannel c = java.nio.channels.FileChannel.open(disk.path().resolve("sparse"),
                        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE)) {
                    c.write(java.nio.ByteBuffer.wrap(new byte[4096]), 4096); // bytes 0+4096 stay a hole
                    c.force(true);
                }
                acks.add("written");
            });
            CrashStateReport report = states.damaged(DamagedBlock.parse("zeroed in sparse bytes 0+4096"))
                    .check(100, (survivor, mustSurvive) -> { });
            System.out.println("ext4, a block in a hole: " + report);
            assertThat(report.damagedChecks()).isZero();
            assertThat(report.notPlaced()).as(report.toString()).isPositive().isLessThanOrEqualTo(report.checked());
            assertThat(report.toString()).contains(" " + report.notPlaced() + " damaged block" + (report.notPlaced() == 1
                    ? "" : "s") + " not placed (no such file in the state, or no bytes of the file's own on the drive there; not checked), in ");
        }
    }

    /** A file under two names is one file in a damaged state too: its damage shows under both names. */
    @Test
    void aDamagedFileWithTwoNamesReadsDamagedUnderBothOnTheFileModel() throws Exception {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            CrashStates states = disk.recordCrashStates(acks -> {
                Path journal = disk.path().resolve("journal");
                PosixCalls.writeSynced(journal, "x".repeat(8192));
                Files.createLink(disk.path().resolve("also"), journal);
                PosixCalls.syncDirectory(disk.path());
                acks.add("written");
            });
            CrashStateReport report = states.damaged(DamagedBlock.parse("bit rot in journal bytes 0+4096, seed 5"))
                    .check(100, (survivor, mustSurvive) -> {
                        if (Files.exists(survivor.resolve("journal")) && Files.exists(survivor.resolve("also"))) {
                            assertThat(Files.readAllBytes(survivor.resolve("also"))).as("the other name")
                                    .isEqualTo(Files.readAllBytes(survivor.resolve("journal")));
                        }
                    });
            System.out.println("file model, a file with two names: " + report);
            assertThat(report.damagedChecks()).isPositive();
            report.assertPassed();
        }
    }

    @Test
    void aSweepWithoutKindsOrBlockBytesOrWithNegativeBlocksIsRefusedSayingWhy() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateDamages.sweep(List.of(), 4096, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one kind");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateDamages.sweep(List.of(DataFault.Kind.ZEROED), 0, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 byte, not 0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateDamages.sweep(List.of(DataFault.Kind.ZEROED), 512, -1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 0 times, not -1");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateDamages.only(DamagedBlock.none()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name a damaged block");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateDamages.only(
                        DamagedBlock.parse("lost write in journal bytes 0+512")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("damaged at rest, by bit rot or zeroed")
                .hasMessageContaining("not by a lost write");
        org.assertj.core.api.Assertions.assertThat(StateDamages.only(DamagedBlock.parse("zeroed in journal bytes 0+512")))
                .isNotNull();
    }
}

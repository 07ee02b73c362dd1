package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A write the drive acknowledges and makes at the wrong place ({@link WriteFault#misdirectedTo}): the sixth record's
 * slot keeps its old bytes and the third's is overwritten by the sixth record. A store whose records carry their own
 * slot number and a checksum ({@link SlotLogs#CHECKED}) detects it: the third slot holds another slot's record. One
 * without ({@link SlotLogs#PLAIN}) reads the sixth record in the third's place, with no error: silent corruption. On
 * ext4 (the real kernel's writeback meeting the fault at the fsync) and on the file model.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class MisdirectedWriteTests {

    private static final int RECORDS = 6;
    /** The record whose write lands elsewhere, by its slot, and the slot it lands on. */
    private static final int MISDIRECTED = 5;
    private static final int TARGET = 2;

    @TempDir
    Path tmp;

    /** Six records appended to {@code log} by {@code store}, each acknowledged once synced, the sixth's misdirected. */
    private static AcknowledgedRecords append(SimulatedDisk disk, SlotLogs store, Path log) throws IOException {
        SlotLogs.create(log, RECORDS + 2);
        AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
        for (int n = 0; n < RECORDS; n++) {
            if (n == MISDIRECTED) {
                disk.failWrites(WriteFault.toFile(log).range((long) n * SlotLogs.SLOT, SlotLogs.SLOT)
                        .misdirectedTo(log, (long) TARGET * SlotLogs.SLOT));
            }
            store.append(log, n, "record " + (n + 1));
            acks.add("record " + (n + 1));
        }
        return acks;
    }

    private static void detectedWithChecksums(SimulatedDisk disk, String model) throws IOException {
        Path log = disk.path().resolve("log");
        append(disk, SlotLogs.CHECKED, log);
        assertThat(disk.misdirectedWrites()).isEqualTo(1);
        assertThat(disk.lostWrites()).isZero();
        assertThat(disk.failedWrites()).isZero();
        Path survivor = disk.cutPower().resolve("log");
        assertThatThrownBy(() -> SlotLogs.CHECKED.read(survivor)).isInstanceOf(SlotLogs.BadRecord.class)
                .satisfies(e -> System.out.printf("%s, checked store, the 6th record misdirected to the 3rd slot: %s%n",
                        model, e.getMessage()))
                .hasMessage("slot 2 holds the record of slot 5 (\"record 6\"): a write that landed at the wrong place");
    }

    private static void silentWithout(SimulatedDisk disk, String model) throws IOException {
        Path log = disk.path().resolve("log");
        AcknowledgedRecords acks = append(disk, SlotLogs.PLAIN, log);
        List<String> powered = SlotLogs.PLAIN.read(log);
        List<String> survived = SlotLogs.PLAIN.read(disk.cutPower().resolve("log"));
        System.out.printf("%s, plain store, the 6th record misdirected to the 3rd slot: read with the power on %s;"
                + " after the cut %s, no error%n", model, powered, survived);
        assertThat(powered).as("with the power on the page cache holds every record in its place").isEqualTo(acks.all());
        assertThat(survived).as("the sixth record in the third's place, read as the third, without an error")
                .containsExactly("record 1", "record 2", "record 6", "record 4", "record 5");
        assertThat(acks.lost(survived)).containsExactly("record 3");
    }

    @Test
    void onExt4AStoreWithPerRecordChecksumsAndPlacesDetectsAMisdirectedWrite() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            detectedWithChecksums(disk, "ext4");
        }
    }

    @Test
    void onExt4AMisdirectedWriteIsSilentCorruptionForAStoreWithout() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            silentWithout(disk, "ext4");
        }
    }

    @Test
    void onTheFileModelAStoreWithPerRecordChecksumsAndPlacesDetectsAMisdirectedWrite() throws IOException {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            detectedWithChecksums(disk, "file model");
        }
    }

    @Test
    void onTheFileModelAMisdirectedWriteIsSilentCorruptionForAStoreWithout() throws IOException {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            silentWithout(disk, "file model");
        }
    }

    @Test
    void onExt4AMisdirectedWriteLandsInAnotherFileAtItsPlaceOnTheDrive() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            Path log = disk.path().resolve("log");
            Path other = disk.path().resolve("other");
            SlotLogs.create(other, 2);
            SlotLogs.PLAIN.append(other, 0, "other's record");
            SlotLogs.create(log, 2);
            disk.failWrites(WriteFault.toFile(log).range(0, SlotLogs.SLOT).misdirectedTo(other, SlotLogs.SLOT));
            SlotLogs.PLAIN.append(log, 0, "log's record");
            Path survivor = disk.cutPower();
            assertThat(SlotLogs.PLAIN.read(survivor.resolve("log"))).isEmpty();
            assertThat(SlotLogs.PLAIN.read(survivor.resolve("other"))).containsExactly("other's record", "log's record");
        }
    }

    @Test
    void theGuidesExampleLosesOneRecordAndMisdirectsAnotherOnExt4() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            Path log = disk.path().resolve("log");
            SlotLogs.create(log, 8);
            // tag::write-lies[]
            // the first write to bytes 12288 to 16383 of log is lost
            disk.failWrites(WriteFault.toFile(log).range(12288, 4096).lost());
            // the first write to bytes 20480 to 24575 of log lands at byte 8192 of log instead
            disk.failWrites(WriteFault.toFile(log).range(20480, 4096).misdirectedTo(log, 8192));
            // end::write-lies[]
            for (int n = 0; n < RECORDS; n++) {
                SlotLogs.PLAIN.append(log, n, "record " + (n + 1));
            }
            assertThat(disk.lostWrites()).isEqualTo(1);
            assertThat(disk.misdirectedWrites()).isEqualTo(1);
            assertThat(SlotLogs.PLAIN.read(disk.cutPower().resolve("log")))
                    .containsExactly("record 1", "record 2", "record 6");
        }
    }

    @Test
    void aTargetThatCannotBePlacedIsRefusedWithTheReason() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            Path log = disk.path().resolve("log");
            SlotLogs.create(log, 2);
            Path shorter = disk.path().resolve("shorter");
            SlotLogs.create(shorter, 1);
            assertThatThrownBy(() -> disk.failWrites(WriteFault.toFile(log).range(0, 2 * SlotLogs.SLOT)
                    .misdirectedTo(shorter, 0))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the target has no place on the drive for all of the range's 8192 bytes");
        }
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            Path log = disk.path().resolve("log");
            SlotLogs.create(log, 2);
            assertThatThrownBy(() -> disk.failWrites(WriteFault.toFile(log).range(0, 10).misdirectedToDrive(0)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the file model has no drive");
        }
    }

    @Test
    void aMisdirectedFaultNeedsARangeAndATargetAndIsOnceByDefault() {
        Path f = Path.of("f");
        assertThatThrownBy(() -> WriteFault.toFile(f).misdirectedTo(f, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("range(from, bytes)");
        assertThatThrownBy(() -> WriteFault.toFile(f).range(0, 1).misdirectedTo(null, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("misdirectedToDrive");
        WriteFault m = WriteFault.toFile(f).range(0, 10).misdirectedTo(f, 20);
        assertThat(m.persistent()).isFalse();
        assertThat(m.always().range(0, 5).target()).isEqualTo(f);
        assertThat(m).hasToString("writes to f bytes 0+10 land at f byte 20, once");
        assertThat(WriteFault.toDrive(0, 4096).misdirectedToDrive(8192))
                .hasToString("writes to the drive bytes 0+4096 land at the drive byte 8192, once");
    }
}

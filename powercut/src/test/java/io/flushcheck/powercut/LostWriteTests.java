package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write the drive acknowledges and never makes ({@link WriteFault#lost()}), under a store that does not verify its
 * records ({@link SlotLogs#PLAIN}): the store writes a record, its fsync succeeds, it acknowledges; with the power on
 * it reads every record back (the page cache holds them); after a cut the record is gone, the store reads what is
 * left without an error and loses every record after it too: silent loss. On ext4 (the real kernel's writeback
 * meeting the fault at the fsync) and on the file model.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class LostWriteTests {

    private static final int RECORDS = 6;
    /** The record whose write the drive loses, by its slot: the fourth. */
    private static final int LOST = 3;

    @TempDir
    Path tmp;

    /** Six records appended to {@code log}, each acknowledged once synced, the fourth's write lost by the drive. */
    private static AcknowledgedRecords appendLosingOne(SimulatedDisk disk, Path log) throws IOException {
        SlotLogs.create(log, RECORDS + 2);
        AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
        for (int n = 0; n < RECORDS; n++) {
            if (n == LOST) {
                // Armed before the write: on ext4 the drive sees the write at the fsync's writeback, not at write().
                disk.failWrites(WriteFault.toFile(log).range((long) n * SlotLogs.SLOT, SlotLogs.SLOT).lost());
            }
            SlotLogs.PLAIN.append(log, n, "record " + (n + 1));
            acks.add("record " + (n + 1));
        }
        return acks;
    }

    private static void lostSilently(SimulatedDisk disk, String model) throws IOException {
        Path log = disk.path().resolve("log");
        AcknowledgedRecords acks = appendLosingOne(disk, log);
        List<String> powered = SlotLogs.PLAIN.read(log);
        long lost = disk.lostWrites();
        long failed = disk.failedWrites();
        List<String> survived = SlotLogs.PLAIN.read(disk.cutPower().resolve("log"));
        System.out.printf("%s, the 4th record's write lost: lost writes %d, failed writes %d; read with the power on %s;"
                + " after the cut %s%n", model, lost, failed, powered, survived);
        assertThat(lost).isEqualTo(1);
        assertThat(failed).as("a lost write is no failure").isZero();
        assertThat(powered).as("with the power on the page cache holds every record").isEqualTo(acks.all());
        assertThat(survived).as("read without an error, ending at the lost record's empty slot")
                .containsExactly("record 1", "record 2", "record 3");
        assertThatThrownBy(() -> acks.assertDurable(survived)).isInstanceOf(AssertionError.class)
                .satisfies(e -> System.out.printf("%s: %s%n", model, e.getMessage()))
                .hasMessageStartingWith("3 of 6 acknowledged records did not survive the cut: record 4, record 5, record 6")
                .hasMessageEndingWith("; the drive acknowledged writes it did not make as asked (WriteFault): 1 lost,"
                        + " 0 misdirected");
    }

    @Test
    void onExt4ALostWriteOfASyncedRecordIsSilentLossForAStoreThatDoesNotVerify() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            lostSilently(disk, "ext4");
        }
    }

    @Test
    void onTheFileModelALostWriteOfASyncedRecordIsSilentLossForAStoreThatDoesNotVerify() throws IOException {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            lostSilently(disk, "file model");
        }
    }

    @Test
    void onTheFileModelALostWritePlannedOnAFileNotMadeYetMeetsItsFirstWriteByThatName() throws IOException {
        TestDisks.requireFileModel();
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            Path f = disk.path().resolve("sub/f");
            disk.failWrites(WriteFault.toFile(f).range(0, 5).lost());
            assertThatThrownBy(() -> disk.failWrites(WriteFault.toFile(disk.path().resolve("g")).once()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not on the disk yet");
            java.nio.file.Files.createDirectories(f.getParent());
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap("hello world".getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            try (FileChannel dir = FileChannel.open(f.getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            }
            assertThat(disk.lostWrites()).isEqualTo(1);
            byte[] survived = java.nio.file.Files.readAllBytes(disk.cutPower().resolve("sub/f"));
            assertThat(new String(survived, StandardCharsets.UTF_8)).isEqualTo("\0\0\0\0\0 world");
        }
    }

    @Test
    void onExt4AWriteFaultOnAFileNotMadeYetIsRefusedSayingWhy() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            assertThatThrownBy(() -> disk.failWrites(WriteFault.toFile(disk.path().resolve("f")).range(0, 5).lost()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("f is not on the disk yet: on the"
                            + " block model a write fault is placed where the file's bytes lie on the drive (FIEMAP)");
        }
    }

    /** Slot {@code n} of {@code log} read with O_DIRECT: past the file's pages, to the loop device. */
    private static ByteBuffer readDirect(Path log, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocateDirect(2 * SlotLogs.SLOT).alignedSlice(SlotLogs.SLOT).limit(SlotLogs.SLOT);
        try (FileChannel ch = FileChannel.open(log, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            while (b.hasRemaining() && ch.read(b, (long) n * SlotLogs.SLOT + b.position()) > 0) {
                // reads the whole slot
            }
        }
        return b.flip();
    }

    private static String text(ByteBuffer slot) {
        int length = slot.getInt(0);
        byte[] body = new byte[Math.max(0, Math.min(length, SlotLogs.SLOT - 4))];
        slot.get(4, body);
        return length == 0 ? "(empty)" : new String(body, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void onExt4ABufferedReadShowsTheLostRecordAndADirectReadShowsTheDrivesOldBytesOnlyWithLoopDirectIo(boolean directIo)
            throws IOException {
        try (SimulatedDisk disk = directIo ? TestDisks.ext4DirectIo(tmp) : TestDisks.ext4(tmp)) {
            Path log = disk.path().resolve("log");
            appendLosingOne(disk, log);
            String buffered = SlotLogs.PLAIN.read(log).get(LOST);
            String direct = text(readDirect(log, LOST));
            System.out.printf("ext4, loop direct I/O %s, the 4th record's write lost: a buffered read shows %s, an"
                    + " O_DIRECT read %s%n", directIo, buffered, direct);
            assertThat(buffered).as("the file's pages hold what the program wrote").isEqualTo("record 4");
            // Without direct I/O the loop device writes through the drive image's page cache, which keeps the bytes the
            // drive dropped; with it, an O_DIRECT read of the file reaches the drive.
            assertThat(direct).isEqualTo(directIo ? "(empty)" : "record 4");
        }
    }

    @Test
    void aLostWriteIsArmedOnceByDefaultAndEveryTimeWithAlways() {
        Path f = Path.of("f");
        assertThat(WriteFault.toFile(f).range(0, 10).lost().persistent()).isFalse();
        assertThat(WriteFault.toFile(f).range(0, 10).lost().always().persistent()).isTrue();
        assertThat(WriteFault.toFile(f).range(0, 10).lost().kind()).isEqualTo(WriteFault.Kind.LOST);
        assertThat(WriteFault.toFile(f).range(0, 10).lost()).hasToString("writes to f bytes 0+10 are lost, once");
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Faults on a survivor's bytes that no drive holds: a file whose size was made durable and whose bytes were not (as
 * SQLite's -shm file, grown and written through a map, never synced) survives as zeros that no write put on the
 * drive. A bad sector or changed data at rest cannot be there: both models refuse the fault, saying so alike, and
 * still fail the reads of a synced file beside it.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SurvivorFaultsOffTheDriveTests {

    private static final int SHM_BYTES = 32768;

    @TempDir
    Path tmp;

    /** A synced database file, and its -shm file grown by a truncate and written, never synced; the survivor. */
    private static Path cutWithAnUnsyncedShm(SimulatedDisk disk) throws IOException {
        PosixCalls.writeSynced(disk.path().resolve("app.db"), "db!!".repeat(2048));
        try (RandomAccessFile shm = new RandomAccessFile(disk.path().resolve("app.db-shm").toFile(), "rw")) {
            shm.setLength(SHM_BYTES);
            shm.getChannel().write(ByteBuffer.wrap("index!!!".repeat(1024).getBytes()), 0);
        }
        PosixCalls.syncDirectory(disk.path());
        // A later sync of another file: ext4's journal commit carries the -shm's size; the file model's journaled
        // rules make it durable the same way. Its bytes stay unsynced.
        PosixCalls.writeSynced(disk.path().resolve("app.db"), "db2!".repeat(2048));
        return disk.cutPower();
    }

    private static void refusedOnBytesNoDriveHolds(SimulatedDisk disk, String model) throws IOException {
        Path survivor = cutWithAnUnsyncedShm(disk);
        Path shm = survivor.resolve("app.db-shm");
        assertThat(Files.size(shm)).as("its size survived").isEqualTo(SHM_BYTES);
        assertThat(Files.readAllBytes(shm)).as("its bytes did not").containsOnly(0);
        for (long[] range : new long[][] {{0, 4096}, {SHM_BYTES - 4096, 4096}, {0, SHM_BYTES}}) {
            assertThatThrownBy(() -> disk.failReads(ReadFault.toFile(shm).range(range[0], range[1])))
                    .as(model + ": a bad sector on bytes %d+%d", range[0], range[1])
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageEndingWith("app.db-shm has no bytes on the drive in " + range[0] + "+" + range[1]);
        }
        assertThatThrownBy(() -> disk.failReads(ReadFault.toFile(shm))).as(model + ": a bad sector on the file")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("app.db-shm has no bytes on the drive in 0+(to the end)");
        assertThatThrownBy(() -> disk.corrupt(DataFault.zeroed(shm).range(0, 4096))).as(model + ": zeroed bytes")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("app.db-shm has no bytes on the drive in 0+4096");
        assertThatThrownBy(() -> disk.corrupt(DataFault.bitRot(shm).seed(7))).as(model + ": a flipped bit")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no bytes on the drive in");
        System.out.println(model + ": faults on the survivor's never-synced -shm refused, each saying the drive holds"
                + " no bytes of it there");

        disk.failReads(ReadFault.toFile(survivor.resolve("app.db")).range(0, 4096));
        assertThatThrownBy(() -> Files.readAllBytes(survivor.resolve("app.db"))).as(model + ": the synced file's")
                .isInstanceOf(IOException.class).hasMessageContaining("Input/output error");
        assertThat(Files.readAllBytes(shm)).as(model + ": the refusals changed nothing").containsOnly(0);
    }

    /** A file of 4 KiB synced, then grown to 12 KiB by a truncate made durable: its bad sector is its first 4 KiB. */
    private static void aRangeOverHeldAndUnheldBytesTakesTheHeldOnes(SimulatedDisk disk, String model)
            throws IOException {
        Path f = disk.path().resolve("f");
        PosixCalls.writeSynced(f, "held".repeat(1024));
        PosixCalls.syncDirectory(disk.path());
        try (RandomAccessFile grown = new RandomAccessFile(f.toFile(), "rw")) {
            grown.setLength(3 * 4096);
            grown.getFD().sync();
        }
        Path survivor = disk.cutPower();
        Path g = survivor.resolve("f");
        assertThat(Files.size(g)).isEqualTo(3 * 4096);
        disk.failReads(ReadFault.toFile(g));
        try (RandomAccessFile r = new RandomAccessFile(g.toFile(), "r")) {
            byte[] tail = new byte[4096];
            r.seek(2 * 4096);
            r.readFully(tail);
            assertThat(tail).as(model + ": the grown bytes read, zeros").containsOnly(0);
            r.seek(0);
            assertThatThrownBy(() -> r.readFully(new byte[4096])).as(model + ": the synced bytes fail")
                    .isInstanceOf(IOException.class).hasMessageContaining("Input/output error");
        }
        System.out.println(model + ": a bad range over a file's synced 4 KiB and its grown 8 KiB fails the synced bytes"
                + " only");
    }

    /** The same workload on both models: ext4 on the block model, and the file model. */
    private SimulatedDisk disk(String model) throws IOException {
        return model.equals("ext4") ? TestDisks.ext4(tmp) : TestDisks.files(tmp);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ext4", "file model"})
    void aRangeOverHeldAndUnheldBytesOfASurvivorFailsTheHeldOnes(String model) throws IOException {
        try (SimulatedDisk disk = disk(model)) {
            aRangeOverHeldAndUnheldBytesTakesTheHeldOnes(disk, model);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ext4", "file model"})
    void aFaultOnASurvivorsNeverSyncedBytesIsRefusedSayingTheDriveHoldsNone(String model) throws IOException {
        try (SimulatedDisk disk = disk(model)) {
            refusedOnBytesNoDriveHolds(disk, model);
        }
    }
}

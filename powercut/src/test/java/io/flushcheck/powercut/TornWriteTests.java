package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.nio.file.ExtendedOpenOption;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Torn writes: a drive that writes 512 bytes atomically may keep part of a 4 KiB write at a cut. A record
 * overwritten in place without a checksum survives a drive that writes 4 KiB atomically, and comes back torn
 * (its header one version, parts of its body another) from one that writes 512; a record written to the
 * older of two slots with a checksum survives both, since a reader skips a torn slot and finds the other
 * intact. The record is one 4 KiB block of the filesystem, written with O_DIRECT so that it reaches the
 * drive's cache unflushed.
 */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
@ResourceLock(SimulatedPowerLoss.LOCK)
class TornWriteTests {

    private static final int RECORD = 4096;
    private static final int SEEDS = 5;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static Path work(String name) {
        return Path.of(System.getProperty("java.io.tmpdir"), "flushcheck-torn-" + name + "-" + ProcessHandle.current().pid());
    }

    /** Version {@code v}: an 8-byte sequence number, a CRC-32 of the body, and a body of the byte {@code v}. */
    private static ByteBuffer record(int v) {
        ByteBuffer b = ByteBuffer.allocateDirect(2 * RECORD).alignedSlice(RECORD);
        b.limit(RECORD);
        byte[] body = new byte[RECORD - 12];
        java.util.Arrays.fill(body, (byte) v);
        CRC32 crc = new CRC32();
        crc.update(body);
        b.putLong(v).putInt((int) crc.getValue()).put(body).flip();
        return b;
    }

    /** The version a slot holds when whole, or -1 when its body disagrees with its header (torn). */
    private static long whole(byte[] slot) {
        ByteBuffer b = ByteBuffer.wrap(slot);
        long v = b.getLong();
        int stored = b.getInt();
        CRC32 crc = new CRC32();
        crc.update(slot, 12, RECORD - 12);
        return (int) crc.getValue() == stored ? v : -1;
    }

    private static void writeSynced(Path file, long offset, ByteBuffer record) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(record, offset);
            ch.force(true);
        }
    }

    /** Straight to the drive's cache, no flush after it. */
    private static void writeDirect(Path file, long offset, ByteBuffer record) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            ch.write(record, offset);
        }
    }

    /**
     * For each seed, on a fresh drive writing {@code atomic} bytes atomically: version 1 at {@code offset}
     * 0 synced, then version 2 written at {@code second} unsynced, the power cut keeping a seeded subset of
     * the drive's cache; returns what survived of the file, one copy per seed.
     */
    private static List<byte[]> cuts(int atomic, long second) throws IOException {
        List<byte[]> survived = new ArrayList<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            // 4 KiB blocks: mke2fs gives a filesystem this small 1 KiB blocks, which need not be contiguous.
            try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64)
                    .mkfsOptions("-b", "4096").atomicWriteBytes(atomic).create(work(atomic + "-" + seed))) {
                Path file = disk.path().resolve("record");
                writeSynced(file, 0, record(1));
                if (second > 0) {
                    writeSynced(file, second, record(0)); // the second slot exists, empty, before the cut
                }
                writeDirect(file, second, record(2));
                assertThat(disk.unflushedBytes()).as("the second version is in the drive's cache").isGreaterThanOrEqualTo(RECORD);
                Path survivor = disk.cutPower(seed);
                survived.add(Files.readAllBytes(survivor.resolve("record")));
                assertThat(disk.cuts().get(0).keptBytes() % atomic).isZero();
            }
        }
        return survived;
    }

    @Test
    void aRecordOverwrittenInPlaceWithoutAChecksumSurvivesFourKibAtomicWritesAndTearsOnFiveHundredTwelve() throws IOException {
        for (byte[] f : cuts(4096, 0)) {
            assertThat(whole(f)).as("a 4 KiB write survives whole or not at all").isIn(1L, 2L);
        }
        List<Long> torn = new ArrayList<>();
        for (byte[] f : cuts(512, 0)) {
            torn.add(whole(f));
        }
        assertThat(torn).as("versions of the record after each cut, -1 for torn").contains(-1L);
    }

    @Test
    void aChecksummedRecordWrittenToTheOlderOfTwoSlotsSurvivesBoth() throws IOException {
        for (int atomic : new int[] {4096, 512}) {
            boolean sawTorn = false;
            for (byte[] f : cuts(atomic, RECORD)) {
                long a = whole(java.util.Arrays.copyOfRange(f, 0, RECORD));
                long b = whole(java.util.Arrays.copyOfRange(f, RECORD, 2 * RECORD));
                sawTorn |= b == -1;
                assertThat(a).as("the synced slot, whatever happened to the other").isEqualTo(1);
                assertThat(Math.max(a, b)).as("what a reader takes: the newest whole slot").isIn(1L, 2L);
            }
            assertThat(sawTorn).as("torn second slots with %d-byte atomic writes", atomic).isEqualTo(atomic < 4096);
        }
    }

    @Test
    void aDriveWritesOnlyAPowerOfTwoFromFiveHundredTwelveToFourKibAtomically() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).atomicWriteBytes(1000)
                .create(work("bad")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("512, 1024, 2048 or 4096");
    }

    @Test
    @SimulatedPowerLoss(sizeMiB = 64, atomicWriteBytes = 512)
    void theAnnotationMakesADriveThatTears(SimulatedDisk disk) {
        assertThat(disk.atomicWriteBytes()).isEqualTo(512);
    }
}

package io.flushcheck.powercut.internal.states;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.drive.SectorStore;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drive's recording, end to end without a kernel: the writes and flushes a {@link SectorStore} logs, read
 * back by epoch, and the image each crash state leaves, byte for byte.
 */
class RecordingTests {

    private static final int SECTOR = SectorStore.SECTOR;
    private static final long SIZE = 64 * SECTOR;

    @TempDir
    Path dir;

    private static byte[] sector(int fill) {
        byte[] b = new byte[SECTOR];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    /** Sector 1 holds 1 before the recording; then 2 at 1 and 3 at 2, a flush, then 4 at 2 and 5 at 3. */
    private List<Epoch> record(SectorStore store, Path log, Path base) throws IOException {
        store.write(SECTOR, sector(1), SECTOR);
        store.flush();
        store.record(log, base);
        store.write(SECTOR, sector(2), SECTOR);
        store.write(2 * SECTOR, sector(3), SECTOR);
        store.flush();
        store.write(2 * SECTOR, sector(4), SECTOR);
        store.write(3 * SECTOR, sector(5), SECTOR);
        assertThat(store.stopRecording()).isTrue();
        store.write(4 * SECTOR, sector(6), SECTOR); // after the recording: not in it
        try (RegularFile l = RegularFile.open(log)) {
            return Recording.epochs(l, SIZE);
        }
    }

    @Test
    void theWritesAndFlushesAreReadBackByEpochWithTheFlushesBeforeEach() throws IOException {
        SectorStore store = new SectorStore(SIZE, SECTOR, null, dir);
        try {
            List<Epoch> epochs = record(store, dir.resolve("log"), dir.resolve("base"));
            assertThat(epochs).extracting(Epoch::flushesBefore).containsExactly(1L, 2L);
            assertThat(epochs.get(0).writes()).extracting(RecordedWrite::offset).containsExactly((long) SECTOR, 2L * SECTOR);
            assertThat(epochs.get(1).writes()).extracting(RecordedWrite::offset).containsExactly(2L * SECTOR, 3L * SECTOR);
            assertThat(epochs.get(1).writes()).extracting(RecordedWrite::length).containsOnly(SECTOR);
            assertThat(Files.size(dir.resolve("base"))).isEqualTo(SIZE);
        } finally {
            store.close();
        }
    }

    @Test
    void eachStatesImageIsTheBaseTheEarlierEpochsAndItsOwnWrites() throws IOException {
        SectorStore store = new SectorStore(SIZE, SECTOR, null, dir);
        try {
            Path log = dir.resolve("log");
            Path base = dir.resolve("base");
            List<Epoch> epochs = record(store, log, base);
            try (RegularFile b = RegularFile.open(base); RegularFile l = RegularFile.open(log);
                 StateImages images = StateImages.open(b, l.channel(), SIZE, epochs, dir)) {
                // in epoch order, as StateImages brings its epoch start forward
                assertThat(image(images, new CrashState(0, CrashState.Kind.PREFIX, 0, 0, 2))).containsExactly(1, 0, 0, 0, 0);
                assertThat(image(images, new CrashState(0, CrashState.Kind.DROP, 0, 0, 1))).containsExactly(1, 3, 0, 0, 0);
                assertThat(image(images, new CrashState(1, CrashState.Kind.PREFIX, 1, 0, 1))).containsExactly(2, 4, 0, 0, 0);
                assertThat(image(images, new CrashState(1, CrashState.Kind.DROP, 0, 0, 1))).containsExactly(2, 3, 5, 0, 0);
                assertThat(image(images, new CrashState(1, CrashState.Kind.PREFIX, 2, 0, 0))).containsExactly(2, 4, 5, 0, 0);
            }
        } finally {
            store.close();
        }
    }

    @Test
    void aTornStateKeepsTheFirstHalfOfItsSector() throws IOException {
        SectorStore store = new SectorStore(SIZE, 512, null, dir);
        try {
            Path log = dir.resolve("log");
            Path base = dir.resolve("base");
            List<Epoch> epochs = record(store, log, base);
            try (RegularFile b = RegularFile.open(base); RegularFile l = RegularFile.open(log);
                 StateImages images = StateImages.open(b, l.channel(), SIZE, epochs, dir)) {
                Path out = dir.resolve("torn.img");
                images.write(new CrashState(1, CrashState.Kind.TORN, 0, SECTOR / 2, 2), out);
                byte[] sector2 = Arrays.copyOfRange(Files.readAllBytes(out), 2 * SECTOR, 3 * SECTOR);
                byte[] expected = sector(3);
                Arrays.fill(expected, 0, SECTOR / 2, (byte) 4);
                assertThat(sector2).isEqualTo(expected);
            }
        } finally {
            store.close();
        }
    }

    /** The first byte of sectors 1 to 5 of the image {@code state} leaves. */
    private int[] image(StateImages images, CrashState state) throws IOException {
        Path out = dir.resolve("state.img");
        images.write(state, out);
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(out));
        assertThat(bytes.capacity()).isEqualTo(SIZE);
        int[] firsts = new int[5];
        for (int s = 1; s <= 5; s++) {
            firsts[s - 1] = bytes.get(s * SECTOR);
        }
        return firsts;
    }
}

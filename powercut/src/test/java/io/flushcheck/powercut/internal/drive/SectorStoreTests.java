package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SectorStoreTests {

    private static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        java.util.Arrays.fill(b, (byte) value);
        return b;
    }

    private static byte[] read(SectorStore s, long offset, int n) {
        byte[] out = new byte[n];
        s.read(offset, out, n);
        return out;
    }

    @Test
    void aFlushMakesEverythingBeforeItDurableAndACutLosesTheRest() {
        SectorStore s = new SectorStore(64 * 4096);
        s.write(0, filled(4096, 1), 4096);
        s.flush();
        s.write(4096, filled(100, 2), 100);
        assertThat(s.flushes()).isEqualTo(1);
        assertThat(s.unflushedBytes()).isEqualTo(4096);
        assertThat(read(s, 4096, 100)).isEqualTo(filled(100, 2));

        assertThat(s.cut(PowerLossModel.CutMode.FLUSHED, 0)).containsExactly(0, 1);
        assertThat(read(s, 0, 4096)).isEqualTo(filled(4096, 1));
        assertThat(read(s, 4096, 100)).isEqualTo(filled(100, 0));
        s.write(0, filled(4096, 9), 4096);
        s.flush();
        assertThat(read(s, 0, 4096)).as("writes after the cut are discarded").isEqualTo(filled(4096, 1));
        assertThat(s.flushes()).isEqualTo(1);
        assertThatThrownBy(() -> s.cut(PowerLossModel.CutMode.FLUSHED, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anImageHoldsWhatTheDriveReadsWithoutZerosAndADriveMadeFromItIsACopyOnWrite() {
        SectorStore first = new SectorStore(8 * 4096);
        first.write(0, filled(4096, 1), 4096);
        first.write(4096, filled(4096, 0), 4096);
        first.flush();
        first.write(2 * 4096, filled(4096, 2), 4096);
        var image = first.image();
        assertThat(image.sectors()).as("durable and cached sectors, zeros left out").containsExactly(0L, 2L);

        SectorStore second = new SectorStore(8 * 4096, 4096, image);
        assertThat(read(second, 0, 4096)).isEqualTo(filled(4096, 1));
        assertThat(read(second, 2 * 4096, 4096)).isEqualTo(filled(4096, 2));
        assertThat(second.flushes()).isZero();
        assertThat(second.unflushedBytes()).as("what it starts from is durable").isZero();

        first.write(2 * 4096, filled(10, 7), 10);
        second.write(100, filled(10, 9), 10);
        second.flush();
        assertThat(read(second, 2 * 4096, 10)).as("the cache the image was taken from is written on").isEqualTo(filled(10, 2));
        assertThat(read(first, 100, 10)).as("a write to the copy").isEqualTo(filled(10, 1));
        assertThat(second.cut(PowerLossModel.CutMode.FLUSHED, 0)).containsExactly(0, 0);
        assertThat(read(second, 100, 10)).isEqualTo(filled(10, 9));
        assertThat(read(new SectorStore(8 * 4096, 4096, image), 100, 10)).as("the image itself").isEqualTo(filled(10, 1));

        assertThatThrownBy(() -> new SectorStore(4096, 4096, image)).as("an image of a larger drive")
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void aPartialWriteKeepsTheRestOfItsSectorAndAWriteAcrossSectorsSplits() {
        SectorStore s = new SectorStore(4 * 4096);
        s.write(0, filled(8192, 1), 8192);
        s.flush();
        s.write(4000, filled(200, 3), 200);
        assertThat(s.unflushedBytes()).isEqualTo(2 * 4096);
        byte[] r = read(s, 3990, 220);
        assertThat(r[0]).isEqualTo((byte) 1);
        assertThat(r[10]).isEqualTo((byte) 3);
        assertThat(r[209]).isEqualTo((byte) 3);
        assertThat(r[210]).isEqualTo((byte) 1);
    }

    @Test
    void aSubsetCutKeepsSomeUnflushedSectorsAndTheSameSeedKeepsTheSameOnes() {
        long[] first = null;
        for (int run = 0; run < 2; run++) {
            SectorStore s = new SectorStore(256 * 4096);
            for (int i = 0; i < 200; i++) {
                s.write(i * 4096L, filled(4096, 7), 4096);
            }
            long[] r = s.cut(PowerLossModel.CutMode.SUBSET, 42);
            assertThat(r[0] + r[1]).isEqualTo(200);
            assertThat(r[0]).isBetween(50L, 150L);
            if (first == null) {
                first = r;
            } else {
                assertThat(r).containsExactly(first);
            }
        }
    }

    @Test
    void theSavedImageHoldsTheDurableSectorsAndHolesElsewhere(@TempDir Path dir) throws Exception {
        SectorStore s = new SectorStore(16 * 4096);
        s.write(8192, filled(4096, 5), 4096);
        s.flush();
        s.write(0, filled(4096, 6), 4096);
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        Path image = dir.resolve("survivor.img");
        s.save(image);
        byte[] all = Files.readAllBytes(image);
        assertThat(all).hasSize(16 * 4096);
        assertThat(all[0]).isZero();
        assertThat(all[8192]).isEqualTo((byte) 5);
    }

    @Test
    void afterAnArmedCutEveryFlushFailsAndAfterACutAskedForTheyPass() {
        SectorStore armed = new SectorStore(16 * 4096);
        armed.cutAtFlush(1);
        armed.write(0, filled(4096, 1), 4096);
        assertThat(armed.flush()).as("the armed flush itself completes").isTrue();
        assertThat(armed.armedCutHappened()).isTrue();
        armed.write(4096, filled(4096, 2), 4096);
        assertThat(armed.flush()).as("a flush after the power went").isFalse();
        assertThat(armed.cut(PowerLossModel.CutMode.FLUSHED, 0)).containsExactly(0, 0);

        SectorStore asked = new SectorStore(16 * 4096);
        asked.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(asked.armedCutHappened()).isFalse();
        assertThat(asked.flush()).as("closing and unmounting after the test's own cut").isTrue();
    }

    @Test
    void aCutDuringAFlushKeepsWhatTheFlushBeforeMadeDurableAndASeededSubsetOfTheRest() {
        long[] first = null;
        for (int run = 0; run < 2; run++) {
            SectorStore s = new SectorStore(256 * 4096);
            s.write(0, filled(4096, 1), 4096);
            assertThat(s.flush()).isTrue();
            s.cutDuringFlush(2, 42);
            for (int i = 1; i < 201; i++) {
                s.write(i * 4096L, filled(4096, 7), 4096);
            }
            assertThat(s.flush()).as("the flush the power went during").isFalse();
            assertThat(s.flushes()).isEqualTo(1);
            assertThat(read(s, 0, 4096)).isEqualTo(filled(4096, 1));
            long[] r = s.cut(PowerLossModel.CutMode.FLUSHED, 0);
            assertThat(r[0] + r[1]).isEqualTo(200);
            assertThat(r[0]).isBetween(50L, 150L);
            if (first == null) {
                first = r;
            } else {
                assertThat(r).containsExactly(first);
            }
        }
        SectorStore s = new SectorStore(16 * 4096);
        s.flush();
        assertThatThrownBy(() -> s.cutDuringFlush(1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has already happened");
    }

    @Test
    void aDiskIsWholeSectors() {
        assertThatThrownBy(() -> new SectorStore(1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("4 KiB sectors");
        SectorStore s = new SectorStore(4096);
        assertThatThrownBy(() -> s.write(4000, new byte[200], 200)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}

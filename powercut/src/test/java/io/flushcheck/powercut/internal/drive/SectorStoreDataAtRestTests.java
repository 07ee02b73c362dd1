package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data at rest that changes on the drive ({@link SectorStore#flipBit}, {@link SectorStore#zero}): what it reads now
 * and what is durable change alike, so a cut does not undo the change, whether the sector was written since the last
 * flush or not.
 */
class SectorStoreDataAtRestTests {

    @TempDir
    Path tmp;

    private static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    private static byte[] read(SectorStore s, long offset, int n) {
        byte[] out = new byte[n];
        s.read(offset, out, n);
        return out;
    }

    @Test
    void aFlippedBitOfADurableSectorReadsNowAndSurvivesACut() {
        SectorStore s = new SectorStore(16 * 4096);
        s.write(4096, filled(4096, 0x11), 4096);
        s.flush();
        s.flipBit(0, 4096 + 100, 3);
        assertThat(read(s, 4096 + 100, 1)[0]).isEqualTo((byte) (0x11 ^ 8));
        assertThat(read(s, 4096 + 99, 1)[0]).isEqualTo((byte) 0x11);
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(read(s, 4096 + 100, 1)[0]).as("durable: the cut keeps it").isEqualTo((byte) (0x11 ^ 8));
        s.close();
    }

    @Test
    void aSectorWrittenSinceTheFlushChangesNowAndInWhatTheCutPutsBack() {
        SectorStore s = new SectorStore(16 * 4096);
        s.write(0, filled(2 * 4096, 0x11), 2 * 4096);
        s.flush();
        s.write(0, filled(4096, 0x22), 4096);      // cached over durable 0x11
        s.write(2 * 4096, filled(4096, 0x33), 4096); // cached, written for the first time: durable zeros
        s.zero(0, 4000, 4096);                     // across the first two sectors
        s.flipBit(0, 2 * 4096 + 7, 0);
        assertThat(read(s, 3990, 10)).containsOnly(0x22);
        assertThat(read(s, 4000, 4096)).containsOnly(0);
        assertThat(read(s, 8096, 10)).containsOnly(0x11);
        assertThat(read(s, 2 * 4096 + 7, 1)[0]).isEqualTo((byte) (0x33 ^ 1));
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(read(s, 3990, 10)).as("the old contents, back").containsOnly(0x11);
        assertThat(read(s, 4000, 4096)).as("zeroed in the old contents too").containsOnly(0);
        assertThat(read(s, 8096, 10)).containsOnly(0x11);
        assertThat(read(s, 2 * 4096 + 7, 1)[0]).as("the durable zeros, flipped").isEqualTo((byte) 1);
        assertThat(read(s, 2 * 4096 + 8, 1)[0]).isZero();
        s.close();
    }

    @Test
    void aTemplatesSectorChangesWithoutChangingTheTemplate() {
        SectorStore first = new SectorStore(16 * 4096, 4096, null, tmp);
        first.write(0, filled(4096, 0x44), 4096);
        first.flush();
        SectorImage image = first.image(tmp);
        SectorStore s = new SectorStore(16 * 4096, 4096, image, tmp);
        s.flipBit(0, 10, 7);
        assertThat(read(s, 10, 1)[0]).isEqualTo((byte) (0x44 ^ 0x80));
        assertThat(read(new SectorStore(16 * 4096, 4096, image, tmp), 10, 1)[0]).isEqualTo((byte) 0x44);
        s.close();
        first.close();
    }

    @Test
    void dataAtRestDoesNotChangeAfterACutNorWhileRecording() {
        SectorStore s = new SectorStore(16 * 4096, 4096, null, tmp);
        assertThatThrownBy(() -> s.flipBit(0, 0, 8)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bits 0 to 7");
        assertThatThrownBy(() -> s.zero(0, 16 * 4096 - 1, 2)).isInstanceOf(IllegalArgumentException.class);
        try {
            s.record(tmp.resolve("log"), tmp.resolve("base"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThatThrownBy(() -> s.zero(0, 0, 1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("recording");
        s.stopRecording();
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThatThrownBy(() -> s.zero(0, 0, 1)).isInstanceOf(IllegalStateException.class).hasMessageContaining("power is cut");
        s.close();
    }
}

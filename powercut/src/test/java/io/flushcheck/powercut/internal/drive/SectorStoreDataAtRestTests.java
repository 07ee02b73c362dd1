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

    /**
     * A range of thousands of sectors zeroed at once, across sectors of each kind: durable and not written since the
     * flush, written over since it (their old contents kept), written for the first time since it, never written; and
     * a bit flipped afterwards in sectors whose old contents the zeroing made. Now and after a cut that keeps only
     * what was flushed, the range reads as zeros (the flipped bits aside) and the bytes around it as they were.
     */
    @Test
    void aLargeZeroedRangeReadsAsZerosNowAndAfterACut() {
        int sectors = 8192;
        SectorStore s = new SectorStore((long) sectors * 4096, 4096, null, tmp);
        byte[] sector = new byte[4096];
        for (int i = 0; i < sectors; i++) {
            if (i % 4 != 3) { // every fourth never written before the flush
                Arrays.fill(sector, (byte) (1 + i % 251));
                s.write((long) i * 4096, sector, 4096);
            }
        }
        s.flush();
        for (int i = 0; i < sectors; i++) {
            if (i % 4 == 1 || i % 4 == 3) { // written over, and written for the first time, since the flush
                Arrays.fill(sector, (byte) 0x7f);
                s.write((long) i * 4096, sector, 4096);
            }
        }
        long from = 4096 + 100;
        long end = (long) (sectors - 1) * 4096 + 200;
        s.zero(0, from, end - from);
        for (int i = 3; i < sectors - 1; i += 4) {
            s.flipBit(0, (long) i * 4096 + 5, 2); // a sector written first since the flush: its old contents made above
        }
        expectZeroed(s, sectors, from, end, 0x7f, "now");
        assertThat(read(s, 0, 4096)).as("sector 0, before the range").containsOnly(1);
        assertThat(read(s, end, 4096 - 200)).as("the last sector's bytes past the range, written since the flush")
                .containsOnly(0x7f);
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        expectZeroed(s, sectors, from, end, 2, "after the cut");
        assertThat(read(s, 0, 4096)).as("sector 0 after the cut").containsOnly(1);
        assertThat(read(s, end, 4096 - 200)).as("the last sector's bytes past the range after the cut: never flushed")
                .containsOnly(0);
        s.close();
    }

    /**
     * A change after a flush finds the old contents its sector keeps since that flush, not those of the interval
     * before, whose places are taken by others.
     */
    @Test
    void aChangeAfterAFlushFindsTheOldContentsOfItsOwnInterval() {
        SectorStore s = new SectorStore(64 * 4096, 4096, null, tmp);
        s.write(0, filled(10 * 4096, 0x11), 10 * 4096);
        s.flush();
        s.write(0, filled(10 * 4096, 0x22), 10 * 4096); // the old contents of sectors 0 to 9 kept
        s.zero(0, 0, 10 * 4096);
        s.flush();
        s.write(5 * 4096, filled(5 * 4096, 0x44), 5 * 4096);
        s.flush();
        s.write(5 * 4096, filled(5 * 4096, 0x33), 5 * 4096); // the old contents of sectors 5 to 9 kept anew
        s.flipBit(0, 9 * 4096 + 1, 0);
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        byte[] want = filled(4096, 0x44);
        want[1] = 0x45;
        assertThat(read(s, 9 * 4096, 4096)).as("sector 9 after the cut").isEqualTo(want);
        assertThat(read(s, 5 * 4096, 4 * 4096)).as("sectors 5 to 8 after the cut").containsOnly(0x44);
        assertThat(read(s, 0, 5 * 4096)).as("sectors 0 to 4 after the cut").containsOnly(0);
        s.close();
    }

    /**
     * Checks that {@code [from, end)} reads as zeros but for the bits flipped in every fourth sector from 3, and that
     * sector 1's bytes before it read as {@code before}.
     */
    private static void expectZeroed(SectorStore s, int sectors, long from, long end, int before, String when) {
        assertThat(read(s, 4096, 100)).as("sector 1's bytes before the range, %s", when).containsOnly(before);
        for (int i = 1; i < sectors; i++) {
            long lo = Math.max(from, (long) i * 4096);
            long hi = Math.min(end, (long) (i + 1) * 4096);
            byte[] got = read(s, lo, (int) (hi - lo));
            byte[] want = new byte[got.length];
            if (i % 4 == 3 && i < sectors - 1) {
                want[5] = 4;
            }
            assertThat(got).as("sector %d in the zeroed range, %s", i, when).isEqualTo(want);
        }
    }
}

package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.model.PowerLossModel;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The drive's lost and misdirected writes ({@link SectorStore#loseWrites}, {@link SectorStore#misdirectWrites}). */
class SectorStoreWriteLieTests {

    private static final int S = SectorStore.SECTOR;

    private static byte[] filled(int n, int value) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static byte[] read(SectorStore s, long offset, int n) {
        byte[] out = new byte[n];
        s.read(offset, out, n);
        return out;
    }

    /** A drive whose first four sectors hold 1, 2, 3, 4, flushed. */
    private static SectorStore fourSectors() {
        SectorStore s = new SectorStore(64 * S);
        for (int i = 0; i < 4; i++) {
            s.write((long) i * S, filled(S, i + 1), S);
        }
        s.flush();
        return s;
    }

    @Test
    void aLostWriteIsAcknowledgedAndFlushedAndTheRangeKeepsItsOldBytesOutsideItTheWriteLands() {
        SectorStore s = fourSectors();
        s.loseWrites(0, S, S, false);
        assertThat(s.writeResult(0, java.nio.ByteBuffer.wrap(filled(3 * S, 9)))).as("acknowledged").isZero();
        assertThat(s.flush()).isTrue();
        assertThat(read(s, 0, S)).isEqualTo(filled(S, 9));
        assertThat(read(s, S, S)).as("the lost range").isEqualTo(filled(S, 2));
        assertThat(read(s, 2L * S, S)).isEqualTo(filled(S, 9));
        assertThat(s.lostWrites()).isEqualTo(1);
        assertThat(s.failedWrites()).isZero();
        s.write(S, filled(S, 7), S);
        assertThat(read(s, S, S)).as("once: the next write lands").isEqualTo(filled(S, 7));
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(read(s, S, S)).as("unflushed, the next write is cut").isEqualTo(filled(S, 2));
        assertThat(s.lostWrites()).isEqualTo(1);
    }

    @Test
    void aPersistentLostRangeLosesEveryWriteAndAPartOfASectorKeepsTheRest() {
        SectorStore s = fourSectors();
        s.loseWrites(0, 100, 10, true);
        s.write(0, filled(200, 5), 200);
        s.write(104, filled(2, 6), 2);
        s.flush();
        byte[] expected = filled(S, 1);
        Arrays.fill(expected, 0, 100, (byte) 5);
        Arrays.fill(expected, 110, 200, (byte) 5);
        assertThat(read(s, 0, S)).isEqualTo(expected);
        assertThat(s.lostWrites()).isEqualTo(2);
    }

    @Test
    void aMisdirectedWriteLandsAtItsTargetDurablyAtTheFlushAndItsOwnRangeKeepsItsOldBytes() {
        SectorStore s = fourSectors();
        s.misdirectWrites(0, 3L * S, S, false, 0, S);
        s.write(3L * S, filled(S, 8), S);
        s.write(3L * S, filled(S, 9), S);
        assertThat(read(s, 3L * S, S)).as("once: the second write lands in place").isEqualTo(filled(S, 9));
        s.flush();
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(read(s, S, S)).as("the misdirected bytes, at the target").isEqualTo(filled(S, 8));
        assertThat(read(s, 0, S)).isEqualTo(filled(S, 1));
        assertThat(read(s, 2L * S, S)).isEqualTo(filled(S, 3));
        assertThat(s.misdirectedWrites()).isEqualTo(1);
        assertThat(s.lostWrites()).isZero();
    }

    @Test
    void aMisdirectedWriteIsCutWithTheCacheLikeAnyOther() {
        SectorStore s = fourSectors();
        s.misdirectWrites(0, 0, S, false, 0, 2L * S);
        s.write(0, filled(S, 8), S);
        assertThat(read(s, 2L * S, S)).isEqualTo(filled(S, 8));
        s.cut(PowerLossModel.CutMode.FLUSHED, 0);
        assertThat(read(s, 2L * S, S)).isEqualTo(filled(S, 3));
        assertThat(read(s, 0, S)).isEqualTo(filled(S, 1));
    }

    @Test
    void aWriteAcrossSeveralRangesMeetsEachAndCountsOnce() {
        SectorStore s = fourSectors();
        s.loseWrites(0, 100, 10, false);
        s.loseWrites(0, 200, 10, false);
        s.misdirectWrites(0, S, 100, false, 0, 3L * S);
        s.misdirectWrites(0, S + 100, 100, false, 0, 3L * S + 1000);
        s.write(0, filled(2 * S, 5), 2 * S);
        s.flush();
        byte[] first = filled(S, 5);
        Arrays.fill(first, 100, 110, (byte) 1);
        Arrays.fill(first, 200, 210, (byte) 1);
        assertThat(read(s, 0, S)).isEqualTo(first);
        byte[] second = filled(S, 5);
        Arrays.fill(second, 0, 200, (byte) 2);
        assertThat(read(s, S, S)).isEqualTo(second);
        byte[] fourth = filled(S, 4);
        Arrays.fill(fourth, 0, 100, (byte) 5);
        Arrays.fill(fourth, 1000, 1100, (byte) 5);
        assertThat(read(s, 3L * S, S)).isEqualTo(fourth);
        assertThat(s.lostWrites()).isEqualTo(1);
        assertThat(s.misdirectedWrites()).isEqualTo(1);
    }

    @Test
    void aRangeOrTargetOffTheDriveIsRefused() {
        SectorStore s = new SectorStore(4 * S);
        assertThatThrownBy(() -> s.loseWrites(0, 3L * S, 2L * S, false)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.misdirectWrites(0, 0, S, false, 0, 4L * S)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not 0 with 16384+4096");
        assertThatThrownBy(() -> s.misdirectWrites(0, 0, S, false, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyFaultCommandRefusesARangeThatIsNotTheDrivesALengthThatWouldWrapIncluded() {
        SectorStore s = fourSectors();
        long huge = Long.MAX_VALUE - 10;
        org.assertj.core.api.ThrowableAssert.ThrowingCallable[] commands = {
            () -> s.failWrites(0, S, huge, true, 5),
            () -> s.failReads(0, S, huge, true, 5),
            () -> s.loseWrites(0, S, huge, true),
            () -> s.misdirectWrites(0, 0, S, true, 0, huge),
            () -> s.zero(0, S, huge),
            () -> s.failReads(1, 0, S, true, 5),
            () -> s.failWrites(0, 65L * S, S, true, 5),
        };
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable c : commands) {
            assertThatThrownBy(c).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("the drive has one unit, 0, of " + 64 * S + " bytes");
        }
    }
}

package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The drive's bad sectors ({@link SectorStore#failReads}): a read that touches one fails, a write to it clears it. */
class SectorStoreReadFaultTests {

    private static byte[] filled(int n, int b) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) b);
        return a;
    }

    @Test
    void aBadSectorFailsEveryReadTouchingItUntilAWriteReachesIt() {
        SectorStore s = new SectorStore(16 * 4096);
        s.write(0, filled(3 * 4096, 1), 3 * 4096);
        s.flush();
        s.failReads(0, 4096 + 10, 1, true, 5);
        ByteBuffer out = ByteBuffer.allocate(4096);
        assertThat(s.readResult(0, out)).as("the sector before").isZero();
        assertThat(s.readResult(2 * 4096, out.clear())).as("the sector after").isZero();
        assertThat(s.readResult(0, ByteBuffer.allocate(3 * 4096))).isEqualTo(5);
        assertThat(s.readResult(4096, out.clear())).isEqualTo(5);
        assertThat(s.writeResult(2 * 4096, ByteBuffer.wrap(filled(4096, 2)))).isZero();
        assertThat(s.readResult(4096, out.clear())).as("a write of the next sector leaves it bad").isEqualTo(5);
        assertThat(s.writeResult(4096 + 4000, ByteBuffer.wrap(filled(10, 3)))).isZero();
        assertThat(s.readResult(4096, out.clear())).as("a write to part of it clears all of it, as dm-dust").isZero();
        assertThat(out.array()[4000]).isEqualTo((byte) 3);
        assertThat(out.array()[0]).isEqualTo((byte) 1);
        assertThat(s.failedReads()).isEqualTo(3);
        s.close();
    }

    @Test
    void aTransientErrorFailsOneRead() {
        SectorStore s = new SectorStore(16 * 4096);
        s.failReads(0, 0, 4096, false, 61);
        assertThat(s.readResult(0, ByteBuffer.allocate(512))).isEqualTo(61);
        assertThat(s.readResult(0, ByteBuffer.allocate(512))).isZero();
        assertThat(s.failedReads()).isEqualTo(1);
        s.close();
    }
}

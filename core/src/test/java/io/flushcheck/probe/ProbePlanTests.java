package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProbePlanTests {

    private static final List<SyncMode> ONE = List.of(SyncMode.OVERWRITE_FDATASYNC);

    @Test
    void defaultsAreEveryModeOfThisOsAtOneThousandRoundsOf4KiB() {
        ProbePlan p = ProbePlan.defaults();
        assertThat(p.modes()).isEqualTo(SyncMode.available());
        assertThat(p.blockSize()).isEqualTo(4096);
        assertThat(p.rounds()).isEqualTo(1000);
        assertThat(p.perRoundCounters()).isFalse();
        assertThat(ProbePlan.verification().rounds()).isEqualTo(64);
    }

    @Test
    void noModes() {
        assertThatThrownBy(() -> new ProbePlan(List.of(), 4096, 10, false, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a probe needs at least one sync mode; known modes: " + SyncMode.allIds());
    }

    @Test
    void blockSizeOutOfRange() {
        assertThatThrownBy(() -> new ProbePlan(ONE, 511, 10, false, 0))
                .hasMessage("block size 511 is out of range: use 512 to 67108864 bytes (4096, 65536, 1048576 are the usual ones)");
        assertThatThrownBy(() -> ProbePlan.defaults().withBlockSize(64 * 1024 * 1024 + 1))
                .hasMessage("block size 67108865 is out of range: use 512 to 67108864 bytes (4096, 65536, 1048576 are the usual ones)");
        assertThat(ProbePlan.defaults().withBlockSize(512).blockSize()).isEqualTo(512);
    }

    @Test
    void roundsOutOfRange() {
        assertThatThrownBy(() -> ProbePlan.defaults().withRounds(0))
                .hasMessage("rounds 0 is out of range: use 1 to 1000000");
        assertThatThrownBy(() -> ProbePlan.defaults().withRounds(1_000_001))
                .hasMessage("rounds 1000001 is out of range: use 1 to 1000000");
        assertThat(ProbePlan.defaults().withRounds(1).rounds()).isEqualTo(1);
    }

    @Test
    void slowRoundsOutOfRange() {
        assertThatThrownBy(() -> new ProbePlan(ONE, 4096, 10, false, 101))
                .hasMessage("slow rounds 101 is out of range: use 0 to 100");
        assertThatThrownBy(() -> new ProbePlan(ONE, 4096, 10, false, -1))
                .hasMessage("slow rounds -1 is out of range: use 0 to 100");
    }

    @Test
    void macOnlyModeOnLinux() {
        if (System.getProperty("os.name").toLowerCase().contains("linux")) {
            assertThatThrownBy(() -> ProbePlan.defaults().withModes(List.of(SyncMode.FULL_FSYNC)))
                    .hasMessage("sync mode 'full-fsync' exists on macOS only");
        }
    }

    @Test
    void aFioJobWritesTheWholeBlocksThatFitInItsSizeAndLaysOutTheWholeSize() {
        ProbePlan etcd = ProbePlan.fioWrite(SyncMode.APPEND_FDATASYNC, 22L << 20, 2300, 5);
        assertThat(etcd.rounds()).isEqualTo(10_029);
        assertThat(etcd.layoutBytes()).isEqualTo(23_068_672L).isGreaterThan(10_029L * 2300);
        assertThat(etcd.preallocate()).isTrue();
        assertThat(etcd.modes()).containsExactly(SyncMode.APPEND_FDATASYNC);
        assertThat(ProbePlan.fioWrite(SyncMode.APPEND_FSYNC, 8192, 4096, 0).layoutBytes()).isEqualTo(8192);
        assertThat(etcd.withRounds(20_000).layoutBytes()).as("more rounds than the size holds: their bytes")
                .isEqualTo(20_000L * 2300);
        assertThat(new ProbePlan(ONE, 4096, 10, false, 0, true).layoutBytes()).isEqualTo(40_960);
    }

    @Test
    void aFioJobNeedsABlockInItsSizeAndAnAppendingMode() {
        assertThatThrownBy(() -> ProbePlan.fioWrite(SyncMode.APPEND_FDATASYNC, 2299, 2300, 0))
                .hasMessageContaining("holds no block of 2300");
        assertThatThrownBy(() -> ProbePlan.fioWrite(SyncMode.OVERWRITE_FDATASYNC, 1 << 20, 4096, 0))
                .hasMessageContaining("--rw=write appends");
        assertThatThrownBy(() -> new ProbePlan(ONE, 4096, 10, false, 0, true, -1)).hasMessageContaining("out of range");
    }
}

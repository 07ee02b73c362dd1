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
}

package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Pointer;
import io.flushcheck.testing.ProbeLeftovers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write and the sync of a round are timed apart as well as whole. The real native calls run; a
 * decorator makes each write take at least 300 µs more and each sync 2 ms more, so that the two steps
 * are told apart by far more than any noise: a sync timed with its write, or a write with its sync,
 * shows.
 */
class SplitLatencyTests {

    private static final long WRITE_EXTRA_NANOS = 300_000;
    private static final long SYNC_EXTRA_NANOS = 2_000_000;

    @TempDir(factory = BuildDirTempDirs.class)
    Path dir;

    /** Real calls, each write and sync held up by a spin of known length. */
    private static final class Slowed extends ForwardingSyncCalls {

        private static void spin(long nanos) {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }

        @Override
        public long pwrite(int fd, Pointer buffer, long count, long offset) {
            spin(WRITE_EXTRA_NANOS);
            return real.pwrite(fd, buffer, count, offset);
        }

        @Override
        public long write(int fd, Pointer buffer, long count) {
            spin(WRITE_EXTRA_NANOS);
            return real.write(fd, buffer, count);
        }

        @Override
        public void fsync(int fd) {
            spin(SYNC_EXTRA_NANOS);
            real.fsync(fd);
        }

        @Override
        public void fdatasync(int fd) {
            spin(SYNC_EXTRA_NANOS);
            real.fdatasync(fd);
        }
    }

    @Test
    void theSyncAloneAndTheWriteAloneAreRecordedBesideTheWholeRound() {
        ProbePlan plan = new ProbePlan(List.of(SyncMode.APPEND_FDATASYNC, SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC),
                2300, 20, false, 2);
        List<SyncCost> costs = SyncProbe.with(new Slowed(), null, null).run(dir, plan, ProbeListener.NONE);
        assertThat(costs).hasSize(3);
        for (SyncCost c : costs) {
            assertThat(c.hasSplitLatencies()).as(c.mode().id()).isTrue();
            LatencyDistribution w = c.writeLatencies();
            LatencyDistribution s = c.syncLatencies();
            assertThat(w.count()).isEqualTo(20);
            assertThat(s.count()).isEqualTo(20);
            assertThat(w.minMicros()).as("%s: the write alone holds its 300 us", c.mode()).isGreaterThanOrEqualTo(299);
            assertThat(w.percentileMicros(50)).as("%s: the write alone holds none of the sync's 2 ms", c.mode())
                    .isLessThan(2000);
            assertThat(s.minMicros()).as("%s: the sync alone holds its 2 ms", c.mode()).isGreaterThanOrEqualTo(1999);
            assertThat(c.minMicros()).as("%s: a whole round holds both", c.mode()).isGreaterThanOrEqualTo(2299);
            // Each round's whole is its write plus its sync, so the sums of the three agree.
            double whole = c.latencies().meanMicros();
            assertThat(w.meanMicros() + s.meanMicros()).as(c.mode().id()).isBetween(whole * 0.98, whole * 1.02);
        }
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }

    @Test
    void aModeWithoutASeparateSyncStepIsTimedWholeOnly() {
        ProbePlan plan = new ProbePlan(List.of(SyncMode.DSYNC, SyncMode.FLUSH_ONLY, SyncMode.NO_SYNC), 4096, 5, false, 0);
        List<SyncCost> costs = SyncProbe.with(new Slowed(), null, null).run(dir, plan, ProbeListener.NONE);
        assertThat(costs).extracting(SyncCost::hasSplitLatencies).containsExactly(false, false, false);
        assertThat(costs).extracting(SyncCost::syncLatencies).containsOnlyNulls();
    }
}

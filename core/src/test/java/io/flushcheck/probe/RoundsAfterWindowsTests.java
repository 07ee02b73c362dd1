package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Pointer;
import io.flushcheck.report.TextReport;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import io.flushcheck.testing.ProbeLeftovers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first round after each of the probe's idle windows counts for the verdict (its sync is bracketed like every
 * other) but is left out of the latencies, the slowest rounds and the median round. The real calls run on a disk
 * whose counters the probe reads, so that it takes its windows; a decorator tells which rounds follow a window by
 * the control writes the windows make (to another file than the synced one), and holds every sync up 1 ms so
 * that 100 rounds span several windows.
 */
class RoundsAfterWindowsTests {

    private static final int ROUNDS = 100;
    private static final long SYNC_EXTRA_NANOS = 1_000_000;

    @TempDir(factory = BuildDirTempDirs.class)
    Path dir;

    /** Real calls; notes which syncs come first after a window's control writes. */
    private static final class Watching extends ForwardingSyncCalls {
        final Set<Integer> afterWindow = new TreeSet<>();
        int syncs;
        int syncedFd = -1;
        boolean controlWritten;

        private void written(int fd) {
            controlWritten |= syncedFd >= 0 && fd != syncedFd;
        }

        @Override
        public long write(int fd, Pointer buffer, long count) {
            written(fd);
            return real.write(fd, buffer, count);
        }

        @Override
        public long pwrite(int fd, Pointer buffer, long count, long offset) {
            written(fd);
            return real.pwrite(fd, buffer, count, offset);
        }

        @Override
        public void fsync(int fd) {
            // The layout's sync (overwrite's preallocation): not a round.
            real.fsync(fd);
        }

        @Override
        public void fdatasync(int fd) {
            syncedFd = fd;
            if (controlWritten) {
                afterWindow.add(syncs);
                controlWritten = false;
            }
            syncs++;
            long end = System.nanoTime() + SYNC_EXTRA_NANOS;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            real.fdatasync(fd);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"APPEND_FDATASYNC", "OVERWRITE_FDATASYNC"})
    void theFirstRoundAfterEachIdleWindowIsLeftOutOfTheLatenciesButNotOfTheBrackets(SyncMode mode) throws IOException {
        StorageInspector inspector = new StorageInspector();
        StorageFacts facts = inspector.inspect(dir);
        Watching calls = new Watching();
        SyncProbe probe = SyncProbe.with(calls, facts, inspector);
        // As many slow rounds kept as rounds run: every round in the latencies is then listed by its index.
        ProbePlan plan = new ProbePlan(List.of(mode), 4096, ROUNDS, false, ROUNDS);
        SyncCost c = probe.run(dir, plan, ProbeListener.NONE).get(0);
        Assumptions.assumeTrue(c.brackets() != null, "no device counters to read under " + dir + " (" + facts.fsType()
                + "): the probe takes no idle windows there");

        assertThat(calls.syncs).isEqualTo(ROUNDS);
        assertThat(calls.afterWindow).as("100 rounds of over 1 ms span several 10 ms stretches").isNotEmpty()
                .doesNotContain(0);
        assertThat(c.rounds()).isEqualTo(ROUNDS);
        assertThat(c.brackets().syncs()).as("every sync is bracketed for the verdict").isEqualTo(ROUNDS);
        long kept = ROUNDS - calls.afterWindow.size();
        assertThat(c.latencyRounds()).isEqualTo(kept);
        assertThat(c.roundsLeftOut()).isEqualTo(calls.afterWindow.size());
        assertThat(c.writeLatencies().count()).isEqualTo(kept);
        assertThat(c.syncLatencies().count()).isEqualTo(kept);
        Set<Integer> listed = c.slowest().stream().map(SlowRound::index).collect(Collectors.toCollection(TreeSet::new));
        Set<Integer> expected = IntStream.range(0, ROUNDS).filter(i -> !calls.afterWindow.contains(i)).boxed()
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).as("the slowest rounds are those in the latencies, none right after a window")
                .isEqualTo(expected);
        assertThat(calls.afterWindow).doesNotContain(c.medianRound().index());
        StringBuilder report = new StringBuilder();
        TextReport.appendCost(report, c, false);
        assertThat(report).as("the report says what the figures leave out").contains(String.format(
                "latencies of %d rounds: the %d that each came right after an idle window are left out", kept,
                calls.afterWindow.size()));
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }

    /** Without device counters the probe takes no windows, and the latencies hold every round. */
    @Test
    void withoutWindowsEveryRoundIsInTheLatencies() {
        Watching calls = new Watching();
        SyncCost c = SyncProbe.with(calls, null, null).run(dir, new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC), 4096,
                ROUNDS, false, 0), ProbeListener.NONE).get(0);
        assertThat(c.idleNanos()).isZero();
        assertThat(calls.afterWindow).isEmpty();
        assertThat(c.latencyRounds()).isEqualTo(ROUNDS);
        assertThat(c.roundsLeftOut()).isZero();
    }
}

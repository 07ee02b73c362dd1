package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Pointer;
import io.flushcheck.report.TextReport;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import io.flushcheck.testing.ProbeLeftovers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * The first two rounds after each of the probe's idle windows count for the verdict (their syncs are bracketed like
 * every other) but are left out of the latencies, the slowest rounds and the median round; a stretch between two
 * windows keeps at least its last round. The real calls run on a disk whose counters the probe reads, so that it
 * takes its windows; a decorator tells where each stretch after a window starts by the control writes the windows
 * make (to another file than the synced one), and holds every sync up so that 100 rounds span several windows.
 */
class RoundsAfterWindowsTests {

    private static final int ROUNDS = 100;
    private static final long SYNC_EXTRA_NANOS = 1_000_000;

    @TempDir(factory = BuildDirTempDirs.class)
    Path dir;

    /** Real calls; notes which syncs come first after a window's control writes. */
    private static final class Watching extends ForwardingSyncCalls {
        final List<Integer> stretchStarts = new ArrayList<>();
        final long extraNanos;
        int syncs;
        int syncedFd = -1;
        boolean controlWritten;

        private void written(int fd) {
            controlWritten |= syncedFd >= 0 && fd != syncedFd;
        }

        Watching(long extraNanos) {
            this.extraNanos = extraNanos;
        }

        /**
         * The rounds the probe should leave out: the first two of each stretch after a window, but never a stretch's
         * last round.
         */
        Set<Integer> leftOut() {
            Set<Integer> out = new TreeSet<>();
            for (int k = 0; k < stretchStarts.size(); k++) {
                int start = stretchStarts.get(k);
                int end = k + 1 < stretchStarts.size() ? stretchStarts.get(k + 1) : syncs;
                for (int i = start; i < Math.min(start + 2, end - 1); i++) {
                    out.add(i);
                }
            }
            return out;
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
                stretchStarts.add(syncs);
                controlWritten = false;
            }
            syncs++;
            long end = System.nanoTime() + extraNanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            real.fdatasync(fd);
        }
    }

    @ParameterizedTest
    @EnumSource(value = SyncMode.class, names = {"APPEND_FDATASYNC", "OVERWRITE_FDATASYNC"})
    void theFirstRoundsAfterEachIdleWindowAreLeftOutOfTheLatenciesButNotOfTheBrackets(SyncMode mode) throws IOException {
        Watching calls = run(mode, SYNC_EXTRA_NANOS);
        assertThat(calls.leftOut()).as("100 rounds of over 1 ms leave rounds out after several windows").isNotEmpty();
    }

    /** A round of 10 ms or more is a stretch of its own, each after a window: none is left out, or none would stay. */
    @Test
    void aStretchOfOneRoundKeepsIt() throws IOException {
        Watching calls = run(SyncMode.OVERWRITE_FDATASYNC, 11 * SYNC_EXTRA_NANOS);
        assertThat(calls.stretchStarts).as("every round after the first is a stretch of its own").hasSize(ROUNDS - 1);
        assertThat(calls.leftOut()).isEmpty();
    }

    /** Runs the probe on the real disk, checks what its latencies hold against the rounds the windows preceded. */
    private Watching run(SyncMode mode, long extraNanos) throws IOException {
        StorageInspector inspector = new StorageInspector();
        StorageFacts facts = inspector.inspect(dir);
        Watching calls = new Watching(extraNanos);
        SyncProbe probe = SyncProbe.with(calls, facts, inspector);
        // As many slow rounds kept as rounds run: every round in the latencies is then listed by its index.
        ProbePlan plan = new ProbePlan(List.of(mode), 4096, ROUNDS, false, ROUNDS);
        SyncCost c = probe.run(dir, plan, ProbeListener.NONE).get(0);
        Assumptions.assumeTrue(c.brackets() != null, "no device counters to read under " + dir + " (" + facts.fsType()
                + "): the probe takes no idle windows there");

        assertThat(calls.syncs).isEqualTo(ROUNDS);
        assertThat(calls.stretchStarts).as("several windows").isNotEmpty().doesNotContain(0);
        assertThat(c.rounds()).isEqualTo(ROUNDS);
        assertThat(c.brackets().syncs()).as("every sync is bracketed for the verdict").isEqualTo(ROUNDS);
        Set<Integer> leftOut = calls.leftOut();
        long kept = ROUNDS - leftOut.size();
        assertThat(c.latencyRounds()).isEqualTo(kept);
        assertThat(c.roundsLeftOut()).isEqualTo(leftOut.size());
        assertThat(c.writeLatencies().count()).isEqualTo(kept);
        assertThat(c.syncLatencies().count()).isEqualTo(kept);
        Set<Integer> listed = c.slowest().stream().map(SlowRound::index).collect(Collectors.toCollection(TreeSet::new));
        Set<Integer> expected = IntStream.range(0, ROUNDS).filter(i -> !leftOut.contains(i)).boxed()
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).as("the slowest rounds are those in the latencies, none right after a window")
                .isEqualTo(expected);
        assertThat(leftOut).doesNotContain(c.medianRound().index());
        StringBuilder report = new StringBuilder();
        TextReport.appendCost(report, c, false);
        if (leftOut.isEmpty()) {
            assertThat(report).doesNotContain("left out");
        } else {
            assertThat(report).as("the report says what the figures leave out").contains(String.format(
                    "latencies of %d rounds: the %d right after idle windows are left out", kept, leftOut.size()));
        }
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
        return calls;
    }

    /** Without device counters the probe takes no windows, and the latencies hold every round. */
    @Test
    void withoutWindowsEveryRoundIsInTheLatencies() {
        Watching calls = new Watching(SYNC_EXTRA_NANOS);
        SyncCost c = SyncProbe.with(calls, null, null).run(dir, new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC), 4096,
                ROUNDS, false, 0), ProbeListener.NONE).get(0);
        assertThat(c.idleNanos()).isZero();
        assertThat(calls.stretchStarts).isEmpty();
        assertThat(c.latencyRounds()).isEqualTo(ROUNDS);
        assertThat(c.roundsLeftOut()).isZero();
    }
}

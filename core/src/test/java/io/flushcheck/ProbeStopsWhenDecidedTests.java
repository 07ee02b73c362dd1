package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.testing.Checks;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The check behind a test annotation ends each mode once its flush brackets decide it: on this machine's disk
 * (virtio, volatile write cache, counters visible) a plan of 1,000 rounds a mode is decided in far fewer, with
 * the same verdict as the full plan, and each cost says how many rounds it ran.
 */
class ProbeStopsWhenDecidedTests {

    private static final ProbePlan PLANNED = ProbePlan.verification().withRounds(1000);

    @Test
    void aRealDiskIsDecidedBeforeThePlannedRoundsWithTheSameVerdict() throws IOException {
        Path dir = Checks.freshDir(Files.createDirectories(Path.of("target", "early").toAbsolutePath()), "disk");
        CheckResult early = Flushcheck.check(dir, new CheckOptions(PLANNED, Thresholds.DEFAULT, false, true), ProbeListener.NONE);
        CheckResult full = Flushcheck.check(dir, new CheckOptions(PLANNED, Thresholds.DEFAULT, false, false), ProbeListener.NONE);
        for (CheckResult r : new CheckResult[] {early, full}) {
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        }
        assertThat(early.costs()).hasSize(2);
        for (SyncCost c : early.costs()) {
            System.out.printf("%s: %d of %d rounds, %s%n", c.mode().id(), c.rounds(), PLANNED.rounds(), c.brackets());
            assertThat(c.rounds()).as("%s stopped once decided", c.mode().id()).isLessThan(PLANNED.rounds() / 2);
            assertThat(c.brackets().syncs()).as("%s brackets cover the rounds run", c.mode().id()).isEqualTo(c.rounds());
        }
        assertThat(full.costs()).allSatisfy(c -> assertThat(c.rounds()).isEqualTo(PLANNED.rounds()));
    }
}

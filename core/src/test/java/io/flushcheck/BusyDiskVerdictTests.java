package io.flushcheck;

import static io.flushcheck.testing.Checks.check;
import static io.flushcheck.testing.Checks.codes;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.FlushBrackets;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.testing.Checks;
import io.flushcheck.testing.DiskLoad;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A healthy disk while fio's jobs append and fdatasync on it, as other jobs on a shared CI runner do: the
 * check behind {@code @RequiresRealFlush} must say REAL_FLUSH every time, from moderate load to heavy, where
 * the flushes counted on the disk are mostly other work's. (The liars under the same loads, a FUSE daemon
 * that swallows syncs and a loop device on a filesystem without barriers, are in {@link StorageLayoutTests};
 * {@code cli/bench/busy-verdicts.sh} repeats all of them twenty times and prints the rates.)
 */
class BusyDiskVerdictTests {

    // As the check behind @RequiresRealFlush runs: each mode ends once its brackets decide it.
    private static final CheckOptions GATE = new CheckOptions(ProbePlan.verification(), Thresholds.DEFAULT, false, true);
    private static final int CHECKS = 3;

    private static Path base;

    @BeforeAll
    static void baseDir() throws IOException {
        base = Files.createDirectories(Path.of("target", "busy").toAbsolutePath());
    }

    @ParameterizedTest(name = "{0} fio jobs")
    @ValueSource(ints = {1, 4})
    void aHealthyDiskUnderFioLoadIsRealFlushEveryTime(int jobs) throws IOException {
        Path dir = Checks.freshDir(base, "healthy-" + jobs);
        try (DiskLoad load = DiskLoad.fio(base, jobs)) {
            int sawOthersFlushes = 0;
            for (int i = 1; i <= CHECKS; i++) {
                CheckResult r = check(dir, GATE);
                for (SyncCost c : r.costs()) {
                    FlushBrackets.Tally b = c.brackets();
                    System.out.printf("healthy disk, %d fio jobs, check %d: %s %s, %d flushes counted, about %d from other"
                                    + " work, %s%n", jobs, i, c.mode().id(), b, c.flushesReached(),
                            Math.round(c.backgroundFlushes()), r.verdict());
                }
                assertThat(r.verdict()).as("check %d under %d fio jobs: %s", i, jobs, r.judgement().findings())
                        .isEqualTo(Verdict.REAL_FLUSH);
                assertThat(codes(r)).startsWith(FindingCode.FLUSHES_REACHED).doesNotContain(FindingCode.SYNCS_WITHOUT_FLUSH);
                for (SyncCost c : r.costs()) {
                    FlushBrackets.Tally b = c.brackets();
                    assertThat(b).as("%s brackets", c.mode()).isNotNull();
                    assertThat(b.syncsWithoutFlush()).as("%s: an honest sync always meets a flush", c.mode()).isZero();
                    if (b.controlsMetFlush() > 0) {
                        sawOthersFlushes++;
                    }
                }
            }
            assertThat(sawOthersFlushes).as("idle brackets that met the load's flushes: the load was on").isPositive();
            assertThat(load.running()).isTrue();
        }
    }
}

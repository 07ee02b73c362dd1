package io.flushcheck;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.verdict.Thresholds;
import org.apiguardian.api.API;

/**
 * How to check a directory.
 *
 * @param plan       what to measure
 * @param thresholds what the judge compares with
 * @param alwaysProbe measure costs even when the storage facts alone already say NO_REAL_FLUSH
 *                    (by default a tmpfs or an interposer is judged without writing anything)
 * @param stopWhenDecided end a mode before its planned rounds once its flush brackets decide it
 *                    ({@link io.flushcheck.verdict.Judge#stopWhenDecided}): for a check that reports only its verdict,
 *                    not for a measurement whose figures need every round
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CheckOptions(ProbePlan plan, Thresholds thresholds, boolean alwaysProbe, boolean stopWhenDecided) {

    /** Options that run every planned round. */
    public CheckOptions(ProbePlan plan, Thresholds thresholds, boolean alwaysProbe) {
        this(plan, thresholds, alwaysProbe, false);
    }

    public static CheckOptions defaults() {
        return new CheckOptions(ProbePlan.defaults(), Thresholds.DEFAULT, false);
    }

    public CheckOptions withPlan(ProbePlan p) {
        return new CheckOptions(p, thresholds, alwaysProbe, stopWhenDecided);
    }
}

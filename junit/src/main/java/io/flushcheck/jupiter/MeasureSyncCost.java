package io.flushcheck.jupiter;

import io.flushcheck.probe.SyncMode;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Measures what durability costs in the test's directory before the test runs (once per class when on
 * the class): a latency distribution per sync mode, rounds per second, and the flushes and bytes the
 * device saw. The figures are published as report entries ({@code flushcheck.<mode>.p50Micros}, ...),
 * written as JSON and text under the build directory ({@value FlushcheckConfig#REPORT_DIR_KEY}), and
 * injected into the test as a {@link SyncCostMeasurement} parameter.
 *
 * <p>With {@link #maxMicros()} (and {@link #gatePercentile()}) or {@link #maxP99Micros()} it is also a gate,
 * like etcd's "p99 of wal fsync under 10 ms": a syncing mode whose percentile is above the limit fails the
 * test with the measured distribution and the number of rounds the percentile rests on. A gate needs
 * enough rounds for its percentile (at least 10 above it), as etcd's fio check measures about 10,000
 * fdatasyncs for its p99.
 *
 * <p>Measurements hold the resource lock {@value FlushcheckConfig#DISK_LOCK}, so they never overlap in a
 * parallel run, and each storage and plan is measured once per run. Usable as a meta-annotation.
 */
@API(status = API.Status.STABLE, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(MeasureSyncCostExtension.class)
@ResourceLock(FlushcheckConfig.DISK_LOCK)
public @interface MeasureSyncCost {

    /**
     * The sync modes to measure, in order ({@link SyncMode#APPEND_FSYNC}, {@link SyncMode#OVERWRITE_FDATASYNC}, ...);
     * empty means {@value FlushcheckConfig#MEASURE_MODES_KEY} (mode names, comma-separated), else every mode of
     * this OS. A mode of another OS ({@link SyncMode#FULL_FSYNC} off macOS) is a configuration error.
     */
    SyncMode[] modes() default {};

    /** Rounds per mode; -1 means {@value FlushcheckConfig#MEASURE_ROUNDS_KEY}, else 200. */
    int rounds() default -1;

    /** Bytes per round; -1 means {@value FlushcheckConfig#MEASURE_BLOCK_SIZE_KEY}, else 4096. */
    int blockSize() default -1;

    /** The directory; empty means {@value FlushcheckConfig#TARGET_KEY}, else {@code java.io.tmpdir}. */
    String path() default "";

    /**
     * Fail when a syncing mode's p99 latency exceeds this many microseconds; -1 (default) measures only.
     * The same as {@code maxMicros} with {@code gatePercentile = 99}: it needs at least 1000 rounds.
     */
    double maxP99Micros() default -1;

    /**
     * Fail when a syncing mode's latency at {@link #gatePercentile()} exceeds this many microseconds; -1
     * (default) measures only. The rounds must put at least 10 rounds above the percentile (1000 rounds for
     * the p99, 100 for the p90, 20 for the median), else the gate is a configuration error: a percentile of
     * fewer rests on a handful of rounds, and one stall of a shared machine decides it.
     */
    double maxMicros() default -1;

    /** The percentile {@link #maxMicros()} gates, above 0 and below 100 (default 99). */
    double gatePercentile() default 99;
}

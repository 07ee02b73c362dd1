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
 * <p>With {@link #maxP99Micros()} it is also a gate, like etcd's "p99 of fdatasync under 10 ms": a syncing
 * mode whose p99 is above the limit fails the test with the measured distribution in the message.
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

    /** Fail when a syncing mode's p99 latency exceeds this many microseconds; -1 (default) measures only. */
    double maxP99Micros() default -1;
}

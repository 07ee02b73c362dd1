package io.flushcheck.jupiter;

import org.apiguardian.api.API;

/**
 * Configuration keys of the flushcheck extensions. Each can be set in {@code junit-platform.properties},
 * as a JVM system property ({@code -Dflushcheck.on-no-real-flush=skip}) or as a launcher configuration
 * parameter. An annotation attribute left at its default means "use the key".
 */
@API(status = API.Status.STABLE, since = "0.1")
public final class FlushcheckConfig {

    /**
     * Directory judged by {@link RequiresRealFlush} and measured by {@link MeasureSyncCost} when the
     * annotation names none and the test has no {@code @TempDir}. Default: the directory where the JDK creates
     * temp files ({@code java.io.tmpdir} as it was when the JVM started).
     */
    public static final String TARGET_KEY = "flushcheck.target";

    /** What a NO_REAL_FLUSH verdict does to a {@link RequiresRealFlush} test: {@code fail} (default), {@code skip}, {@code warn}. */
    public static final String ON_NO_REAL_FLUSH_KEY = "flushcheck.on-no-real-flush";

    /** What an UNKNOWN verdict does to a {@link RequiresRealFlush} test: {@code fail}, {@code skip}, {@code warn} (default). */
    public static final String ON_UNKNOWN_KEY = "flushcheck.on-unknown";

    /** Rounds of each sync mode in the verification probe behind {@link RequiresRealFlush} (default 64, 8 to 100000). */
    public static final String VERIFY_ROUNDS_KEY = "flushcheck.verify.rounds";

    /** Flushes per sync a device must show to count as reached (default 0.5). */
    public static final String MIN_FLUSHES_PER_SYNC_KEY = "flushcheck.min-flushes-per-sync";

    /** A median sync faster than this many microseconds cannot be a drive flush (default 20). */
    public static final String SUSPICIOUS_SYNC_MICROS_KEY = "flushcheck.suspicious-sync-micros";

    /** Default modes of {@link MeasureSyncCost}, comma-separated (default: every mode of this OS). */
    public static final String MEASURE_MODES_KEY = "flushcheck.measure.modes";

    /** Default rounds per mode of {@link MeasureSyncCost} (default 200). */
    public static final String MEASURE_ROUNDS_KEY = "flushcheck.measure.rounds";

    /** Default block size in bytes of {@link MeasureSyncCost} (default 4096). */
    public static final String MEASURE_BLOCK_SIZE_KEY = "flushcheck.measure.block-size";

    /**
     * Where {@link MeasureSyncCost} writes its JSON and text reports. Default: {@code target/flushcheck}
     * (Maven) or {@code build/flushcheck} (Gradle) under the working directory, whichever build
     * directory exists, else {@code flushcheck-reports} in the JVM temp dir.
     */
    public static final String REPORT_DIR_KEY = "flushcheck.report-dir";

    /**
     * First choice of {@link RealDiskTempDirFactory} for temp dirs; must exist. Without it, the factory tries the
     * JVM temp dir, then the build directory ({@code target/} or {@code build/}), then the working directory.
     */
    public static final String TEMPDIR_KEY = "flushcheck.tempdir";

    /**
     * How long, in seconds, a probed verdict of {@link RequiresRealFlush} is shared with the build's other JVMs
     * (Surefire forks) through {@code target/flushcheck/verdicts} (or {@code build/...}): default 300, 0 turns it
     * off. An entry is used only for the same boot, mount, device chain, environment, options and flushcheck.
     */
    public static final String SHARED_VERDICT_SECONDS_KEY = "flushcheck.shared-verdict-seconds";

    /** The resource lock {@link MeasureSyncCost} tests hold, so measurements never overlap in parallel runs. */
    public static final String DISK_LOCK = "io.flushcheck.disk";

    private FlushcheckConfig() {
    }
}

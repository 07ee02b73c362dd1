package io.flushcheck.verdict;

import org.apiguardian.api.API;

/**
 * The numbers the judge compares measurements with.
 *
 * @param minFlushesPerSync    a syncing mode reached the device when the device completed at least this many
 *                             flushes per sync (default 0.5: one per sync is what a real flush leaves, and
 *                             other processes can only add flushes, never remove them)
 * @param suspiciousSyncMicros a median sync faster than this, in microseconds, cannot have waited for a drive
 *                             cache flush (default 20; a bare flush of a virtio disk took a median
 *                             of 49.6 µs on this project's CI machine, and a write plus flush takes more)
 */
@API(status = API.Status.STABLE, since = "0.1")
public record Thresholds(double minFlushesPerSync, double suspiciousSyncMicros) {

    public static final Thresholds DEFAULT = new Thresholds(0.5, 20);

    /** What {@link #minFlushesPerSync} allows, for messages. */
    public static final String MIN_FLUSHES_RANGE = "a number above 0 and at most 10 (default 0.5)";
    /** What {@link #suspiciousSyncMicros} allows, for messages. */
    public static final String SUSPICIOUS_RANGE = "a number from 0 to 1000000 (default 20)";

    public Thresholds {
        checkMinFlushesPerSync("minimum flushes per sync " + minFlushesPerSync, minFlushesPerSync);
        checkSuspiciousSyncMicros("suspicious sync time " + suspiciousSyncMicros + " µs", suspiciousSyncMicros);
    }

    /**
     * The one validation of {@link #minFlushesPerSync}, for every place that takes it (the command's
     * option, the configuration key, this record).
     *
     * @param subject how the caller names the value in the message: an option and its value, a key and its
     *                text, a field
     * @throws IllegalArgumentException "{@code SUBJECT is out of range: use ...}"
     */
    public static double checkMinFlushesPerSync(String subject, double v) {
        if (!validMinFlushesPerSync(v)) {
            throw new IllegalArgumentException(subject + " is out of range: use " + MIN_FLUSHES_RANGE);
        }
        return v;
    }

    /** The one validation of {@link #suspiciousSyncMicros}; as {@link #checkMinFlushesPerSync}. */
    public static double checkSuspiciousSyncMicros(String subject, double v) {
        if (!validSuspiciousSyncMicros(v)) {
            throw new IllegalArgumentException(subject + " is out of range: use " + SUSPICIOUS_RANGE);
        }
        return v;
    }

    public static boolean validMinFlushesPerSync(double v) {
        return v > 0 && v <= 10;
    }

    public static boolean validSuspiciousSyncMicros(double v) {
        return v >= 0 && v <= 1_000_000;
    }
}

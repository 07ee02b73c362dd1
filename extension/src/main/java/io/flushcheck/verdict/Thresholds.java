package io.flushcheck.verdict;

/**
 * The numbers the judge compares measurements with.
 *
 * @param minFlushesPerSync    a syncing mode reached the device when the device completed at least this many
 *                             flushes per sync (default 0.5: one per sync is what a real flush leaves, and
 *                             other processes can only add flushes, never remove them)
 * @param suspiciousSyncMicros a median sync faster than this, in microseconds, cannot have waited for a drive
 *                             cache flush (default 20; seed 002's NVMe flush alone took 49)
 */
public record Thresholds(double minFlushesPerSync, double suspiciousSyncMicros) {

    public static final Thresholds DEFAULT = new Thresholds(0.5, 20);

    public Thresholds {
        if (!(minFlushesPerSync > 0 && minFlushesPerSync <= 10)) {
            throw new IllegalArgumentException("minimum flushes per sync " + minFlushesPerSync
                    + " is out of range: use a number above 0 and at most 10 (default 0.5)");
        }
        if (!(suspiciousSyncMicros >= 0 && suspiciousSyncMicros <= 1_000_000)) {
            throw new IllegalArgumentException("suspicious sync time " + suspiciousSyncMicros
                    + " µs is out of range: use 0 to 1000000 (default 20)");
        }
    }
}

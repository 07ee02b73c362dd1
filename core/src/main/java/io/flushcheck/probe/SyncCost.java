package io.flushcheck.probe;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What one sync mode cost: the latency distribution of its rounds (a closed loop, recorded raw:
 * no coordinated-omission correction), its rate, and what the devices did meanwhile.
 *
 * @param mode        the mode
 * @param blockSize   bytes per round
 * @param rounds      rounds run
 * @param latencies   the rounds' latencies: of every round but the first ones after each of the probe's idle
 *                    windows ({@link #latencyRounds()})
 * @param loopNanos   wall time of the syncing rounds (the idle windows between them left out)
 * @param idleNanos   wall time of the idle windows between the rounds (0 when none were taken)
 * @param devices     counter deltas per device, every level of the chain, the mount's device first
 * @param slowest     the slowest rounds of those in the latencies, slowest first
 * @param medianRound the median round of those in the latencies, with its counters when they were sampled per round
 * @param writeLatencies the write step of each round in the latencies alone, or null where the round has no separate
 *                    write and sync (dsync, whose write syncs; flush-only; no-sync)
 * @param syncLatencies the sync step of each round alone (fsync, fdatasync, {@code force}: what fio
 *                    reports as the sync latency), or null where the round has no separate sync
 * @param brackets    how many syncs met one or more flushes that got all the way down (every level, the
 *                    bottom's disks together) while they ran, against idle brackets of the same lengths
 *                    ({@link FlushBrackets}); null where none were taken
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record SyncCost(SyncMode mode, int blockSize, int rounds, LatencyDistribution latencies, long loopNanos, long idleNanos,
                       List<DeviceDelta> devices, List<SlowRound> slowest, SlowRound medianRound,
                       LatencyDistribution writeLatencies, LatencyDistribution syncLatencies,
                       FlushBrackets.Tally brackets) {

    public SyncCost {
        devices = List.copyOf(devices);
        slowest = List.copyOf(slowest);
    }

    /** A cost without flush brackets. */
    public SyncCost(SyncMode mode, int blockSize, int rounds, LatencyDistribution latencies, long loopNanos, long idleNanos,
                    List<DeviceDelta> devices, List<SlowRound> slowest, SlowRound medianRound,
                    LatencyDistribution writeLatencies, LatencyDistribution syncLatencies) {
        this(mode, blockSize, rounds, latencies, loopNanos, idleNanos, devices, slowest, medianRound, writeLatencies,
                syncLatencies, null);
    }

    /** A cost whose rounds were timed whole only. */
    public SyncCost(SyncMode mode, int blockSize, int rounds, LatencyDistribution latencies, long loopNanos, long idleNanos,
                    List<DeviceDelta> devices, List<SlowRound> slowest, SlowRound medianRound) {
        this(mode, blockSize, rounds, latencies, loopNanos, idleNanos, devices, slowest, medianRound, null, null, null);
    }

    /** A cost measured without idle windows. */
    public SyncCost(SyncMode mode, int blockSize, int rounds, LatencyDistribution latencies, long loopNanos,
                    List<DeviceDelta> devices, List<SlowRound> slowest, SlowRound medianRound) {
        this(mode, blockSize, rounds, latencies, loopNanos, 0, devices, slowest, medianRound, null, null, null);
    }

    /**
     * This cost with {@code earlier}'s brackets added to its own: brackets are independent trials, so those
     * of an earlier measurement of the same mode still count when it is measured again with more rounds.
     */
    public SyncCost withEarlierBrackets(SyncCost earlier) {
        if (brackets == null || earlier == null || earlier.brackets == null || earlier.mode != mode) {
            return this;
        }
        return new SyncCost(mode, blockSize, rounds, latencies, loopNanos, idleNanos, devices, slowest, medianRound,
                writeLatencies, syncLatencies, brackets.plus(earlier.brackets));
    }

    /**
     * How many rounds the latencies hold: {@link #rounds()} but the first two after each of the probe's idle windows
     * (only the first where a window is followed by two rounds, none where by one). A sync after a pause takes
     * longer than one in a loop that never pauses (fio's); those rounds count for the verdict, not for the latency
     * figures.
     */
    public long latencyRounds() {
        return latencies.count();
    }

    /** Rounds run but not in the latencies: the first ones after each idle window ({@link #latencyRounds()}). */
    public long roundsLeftOut() {
        return Math.max(0, rounds - latencies.count());
    }

    public double percentileMicros(double percentile) {
        return latencies.percentileMicros(percentile);
    }

    public double minMicros() {
        return latencies.minMicros();
    }

    public double p50Micros() {
        return percentileMicros(50);
    }

    public double p90Micros() {
        return percentileMicros(90);
    }

    public double p99Micros() {
        return percentileMicros(99);
    }

    public double maxMicros() {
        return latencies.maxMicros();
    }

    /** Whether the write and the sync of each round were timed apart ({@link #syncLatencies()} is there). */
    public boolean hasSplitLatencies() {
        return syncLatencies != null && writeLatencies != null;
    }

    public double roundsPerSecond() {
        return loopNanos <= 0 ? 0 : rounds * 1e9 / loopNanos;
    }

    public boolean hasDeviceCounters() {
        return DeviceDelta.countFlushes(devices);
    }

    /** Flushes completed by the terminal devices during the loop, or -1 when not counted. */
    public long flushes() {
        return DeviceDelta.terminalFlushes(devices);
    }

    /** KiB written by the terminal devices during the loop, or -1 when not counted. */
    public long kibWritten() {
        return DeviceDelta.terminalKib(devices);
    }

    /** Flushes that got all the way down ({@link DeviceDelta#flushesReached(List)}), or -1 when not counted. */
    public long flushesReached() {
        return DeviceDelta.flushesReached(devices);
    }

    /** KiB that got all the way down, or -1 when not counted. */
    public long kibReached() {
        return DeviceDelta.kibReached(devices);
    }

    /** Syncing time over idle time: what turns the idle windows' counts into counts over the loop. */
    private double idleScale() {
        return idleNanos <= 0 ? 0 : (double) loopNanos / idleNanos;
    }

    /**
     * Flushes from other processes' work during the loop, as far as the counters can tell: each
     * device's rate in the idle windows between the rounds, over the loop's syncing time, on the
     * busiest device. 0 when no idle window saw a flush or none were taken; -1 when not counted.
     */
    public double backgroundFlushes() {
        return hasDeviceCounters() ? DeviceDelta.backgroundFlushes(devices, idleScale()) : -1;
    }

    /**
     * The standard deviation of {@link #flushesCaused()} (about √k for k flushes seen in the idle windows,
     * scaled); 0 when none were seen.
     */
    public double backgroundDeviation() {
        return DeviceDelta.backgroundDeviation(devices, idleScale());
    }

    /**
     * The flushes the syncs themselves caused: {@link #flushesReached()} with each device's
     * {@linkplain #backgroundFlushes() other work} taken off first. -1 when not counted.
     */
    public double flushesCaused() {
        return DeviceDelta.flushesCaused(devices, idleScale());
    }

    /**
     * Flushes the syncs caused per synced round ({@link #flushesCaused()} over the rounds), or NaN when
     * not counted or the mode does not sync.
     */
    public double flushesPerSync() {
        double f = flushesCaused();
        return f < 0 || !mode.syncs() ? Double.NaN : f / rounds;
    }

    /** The power-of-two latency histogram: {@link LatencyDistribution#buckets()}. */
    public List<LatencyDistribution.Bucket> log2Buckets() {
        return latencies.buckets();
    }
}

package io.flushcheck.probe;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one sync mode cost: the latency distribution of its rounds (a closed loop, recorded raw:
 * no coordinated-omission correction), its rate, and what the devices did meanwhile.
 *
 * @param mode        the mode
 * @param blockSize   bytes per round
 * @param rounds      rounds run
 * @param latencies   round latencies in nanoseconds
 * @param loopNanos   wall time of the whole loop
 * @param devices     counter deltas per device over the whole loop: the mount's device first, then terminals
 * @param slowest     the slowest rounds, slowest first
 * @param medianRound the median round, with its counters when they were sampled per round
 */
public record SyncCost(SyncMode mode, int blockSize, int rounds, Histogram latencies, long loopNanos,
                       List<DeviceDelta> devices, List<SlowRound> slowest, SlowRound medianRound) {

    public SyncCost {
        devices = List.copyOf(devices);
        slowest = List.copyOf(slowest);
    }

    public double percentileMicros(double percentile) {
        return latencies.getValueAtPercentile(percentile) / 1000.0;
    }

    public double minMicros() {
        return latencies.getMinValue() / 1000.0;
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
        return latencies.getMaxValue() / 1000.0;
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

    /** Flushes per synced round, or NaN when not counted or the mode does not sync. */
    public double flushesPerSync() {
        long f = flushesReached();
        return f < 0 || !mode.syncs() ? Double.NaN : (double) f / rounds;
    }

    /** One bucket of the power-of-two histogram: {@code [lowMicros, highMicros)}. */
    public record Bucket(long lowMicros, long highMicros, long count) {
    }

    /** The log2 histogram of seed 002, in microseconds; empty buckets at either end are left out. */
    public List<Bucket> log2Buckets() {
        long[] counts = new long[64];
        for (var v : latencies.recordedValues()) {
            long micros = Math.max(1, v.getValueIteratedTo() / 1000);
            counts[63 - Long.numberOfLeadingZeros(micros)] += v.getCountAddedInThisIterationStep();
        }
        int lo = 0;
        int hi = 63;
        while (lo < 63 && counts[lo] == 0) {
            lo++;
        }
        while (hi > lo && counts[hi] == 0) {
            hi--;
        }
        List<Bucket> out = new ArrayList<>();
        for (int i = lo; i <= hi; i++) {
            out.add(new Bucket(1L << i, 1L << (i + 1), counts[i]));
        }
        return out;
    }
}

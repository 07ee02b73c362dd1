package io.flushcheck.probe;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import org.HdrHistogram.Histogram;

/**
 * The latencies of a sync mode's rounds: raw round times of a closed loop, measured with
 * {@link System#nanoTime()} and kept to three significant digits (no coordinated-omission correction:
 * a round that waits delays the next one, and no value is added for the rounds that were not run).
 *
 * <p>Immutable; every accessor answers in microseconds except {@link #count()}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class LatencyDistribution {

    /** The longest round recorded as itself; longer ones are recorded as this (an hour). */
    static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    private final Histogram histogram;

    private LatencyDistribution(Histogram histogram) {
        this.histogram = histogram;
    }

    /**
     * A distribution of the given round latencies in nanoseconds; values below 1 ns count as 1 ns,
     * values above an hour as an hour.
     */
    public static LatencyDistribution ofNanos(long... nanos) {
        Histogram h = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
        for (long n : nanos) {
            h.recordValue(Math.max(1, Math.min(n, HIGHEST_TRACKABLE_NANOS)));
        }
        return new LatencyDistribution(h);
    }

    /** How many rounds were recorded. */
    public long count() {
        return histogram.getTotalCount();
    }

    /**
     * The latency at or below which {@code percentile} percent of the rounds fall, in microseconds.
     *
     * @param percentile 0 to 100
     */
    public double percentileMicros(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    /** The fastest round, in microseconds. */
    public double minMicros() {
        return histogram.getMinValue() / 1000.0;
    }

    /** The slowest round, in microseconds. */
    public double maxMicros() {
        return histogram.getMaxValue() / 1000.0;
    }

    /** The mean round, in microseconds. */
    public double meanMicros() {
        return histogram.getMean() / 1000.0;
    }

    /**
     * One bucket of the power-of-two histogram: the rounds that took from {@code lowMicros} (inclusive)
     * to {@code highMicros} (exclusive).
     *
     * @param lowMicros  the bucket's lower bound, a power of two
     * @param highMicros twice {@code lowMicros}
     * @param count      rounds in the bucket
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Bucket(long lowMicros, long highMicros, long count) {
    }

    /**
     * The power-of-two histogram in microseconds ({@code [1, 2)}, {@code [2, 4)}, ...; rounds under
     * 1 µs count in the first), with empty buckets at either end left out.
     */
    public List<Bucket> buckets() {
        long[] counts = new long[64];
        for (var v : histogram.recordedValues()) {
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

    @Override
    public String toString() {
        return "LatencyDistribution[" + count() + " rounds, min " + minMicros() + " us, p50 " + percentileMicros(50)
                + " us, max " + maxMicros() + " us]";
    }
}

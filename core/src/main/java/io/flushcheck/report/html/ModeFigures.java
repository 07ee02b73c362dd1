package io.flushcheck.report.html;

import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SlowRound;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.PercentileCurve;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.TextReport;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the report draws of one sync mode, from a {@link SyncCost} or from its {@link ResultData.Cost} (a guest's
 * result, read back from its JSON).
 *
 * @param mode           the mode's id
 * @param blockSize      bytes per round
 * @param rounds         rounds run
 * @param latencyRounds  how many of them the latencies hold (the first rounds after each idle window left out)
 * @param minMicros      the fastest round
 * @param p50Micros      the median round
 * @param p99Micros      the 99th percentile
 * @param maxMicros      the slowest round
 * @param roundsPerSecond rounds per second of syncing time
 * @param flushesPerSync flushes the syncs caused per round, NaN when not counted
 * @param kibPerSync     KiB that reached the disk per round, NaN when not counted
 * @param buckets        the log2 histogram
 * @param percentiles    the percentile curve: {@code {percentile, micros}} pairs, percentiles rising
 * @param slowest        the slowest rounds: {@code {round, micros, flushes (-1 unknown), kib (-1 unknown)}}
 * @param syncCall       the call the sync step makes (fdatasync, fsync, ...)
 * @param syncP50Micros  the sync step alone, median; NaN where the round has no separate sync
 * @param syncP99Micros  the sync step alone, 99th percentile; NaN where none
 * @param writeP50Micros the write step alone, median; NaN where none
 * @param writeP99Micros the write step alone, 99th percentile; NaN where none
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ModeFigures(String mode, int blockSize, long rounds, long latencyRounds, double minMicros, double p50Micros, double p99Micros,
                          double maxMicros, double roundsPerSecond, double flushesPerSync, double kibPerSync,
                          List<LatencyDistribution.Bucket> buckets, List<double[]> percentiles, List<double[]> slowest,
                          String syncCall, double syncP50Micros, double syncP99Micros, double writeP50Micros,
                          double writeP99Micros) {

    public ModeFigures {
        buckets = List.copyOf(buckets);
        percentiles = List.copyOf(percentiles);
        slowest = List.copyOf(slowest);
    }

    public static ModeFigures of(SyncCost c) {
        List<double[]> slow = new ArrayList<>();
        for (SlowRound s : c.slowest()) {
            slow.add(new double[] {s.index(), s.micros(), s.flushes(), s.kibWritten()});
        }
        double kib = c.kibReached() < 0 ? Double.NaN : (double) c.kibReached() / c.rounds();
        boolean split = c.hasSplitLatencies();
        return new ModeFigures(c.mode().id(), c.blockSize(), c.rounds(), c.latencyRounds(), c.minMicros(), c.p50Micros(), c.p99Micros(),
                c.maxMicros(), c.roundsPerSecond(), c.flushesPerSync(), kib, c.log2Buckets(), PercentileCurve.of(c.latencies()), slow,
                TextReport.syncCall(c.mode()),
                split ? c.syncLatencies().percentileMicros(50) : Double.NaN,
                split ? c.syncLatencies().percentileMicros(99) : Double.NaN,
                split ? c.writeLatencies().percentileMicros(50) : Double.NaN,
                split ? c.writeLatencies().percentileMicros(99) : Double.NaN);
    }

    /** A mode's figures as its JSON carries them (a guest's result). */
    public static ModeFigures of(ResultData.Cost c) {
        List<double[]> curve = new ArrayList<>();
        for (ResultData.Percentile p : c.percentiles()) {
            curve.add(new double[] {p.percentile(), p.micros()});
        }
        List<double[]> slow = new ArrayList<>();
        for (ResultData.SlowRound s : c.slowestRounds()) {
            slow.add(new double[] {s.round(), s.micros(), s.flushes(), s.kibWritten()});
        }
        double kib = c.kibWritten() < 0 || c.rounds() <= 0 ? Double.NaN : (double) c.kibWritten() / c.rounds();
        ResultData.Latencies sync = c.sync();
        ResultData.Latencies write = c.write();
        return new ModeFigures(c.mode().id(), c.blockSize(), c.rounds(), c.latencyRounds(), c.minMicros(), c.p50Micros(), c.p99Micros(),
                c.maxMicros(), c.roundsPerSecond(), c.flushesPerSync(), kib, c.histogram(), curve, slow,
                TextReport.syncCall(c.mode()),
                sync == null ? Double.NaN : sync.p50Micros(), sync == null ? Double.NaN : sync.p99Micros(),
                write == null ? Double.NaN : write.p50Micros(), write == null ? Double.NaN : write.p99Micros());
    }

    /** Rounds run but not in the latencies. */
    public long roundsLeftOut() {
        return rounds - latencyRounds;
    }

    public boolean hasSplit() {
        return !Double.isNaN(syncP50Micros);
    }
}

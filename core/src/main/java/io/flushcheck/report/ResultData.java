package io.flushcheck.report;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A result as its JSON contract carries it ({@link ResultJson}): what a guest sends back, what the host/guest
 * comparison reads and what {@code flushcheck guests --json} prints again. Built from a {@link CheckResult}
 * ({@link #of}) or read from JSON ({@link ResultJson#read}); each record component is the JSON field of the
 * same name. Figures that were not measured are NaN or -1, as in {@link SyncCost}, and null in JSON.
 *
 * @param storage     the storage facts, or null when none were read (JSON {@code {}})
 * @param environment where it was measured ({@code host}, {@code <image>/<mount kind>}), or null outside a
 *                    comparison (then not in the JSON)
 * @param preset      a known recipe's figures and gate ({@code flushcheck --preset etcd}), or null when none was
 *                    asked for (then not in the JSON)
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record ResultData(String path, Verdict verdict, long elapsedMillis, List<Finding> findings, Storage storage,
                         List<Cost> costs, String environment, Preset preset) {

    public ResultData {
        findings = List.copyOf(findings);
        costs = List.copyOf(costs);
    }

    /** One finding: its code, its sentence and the figures behind it. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Finding(FindingCode code, String message, Map<String, String> evidence) {
        public Finding {
            evidence = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(evidence)); // in its order
        }
    }

    /** The storage facts; {@code device} is the device chain, {@code mountOptions} comma-separated. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Storage(String resolvedPath, String fsType, String mountPoint, int mountId, String source,
                          String mountOptions, String superOptions, String device, List<CountedDevice> countedDevices,
                          String countedDevicesNote, String container, String hypervisor, List<String> interposers) {
        public Storage {
            countedDevices = List.copyOf(countedDevices);
            interposers = List.copyOf(interposers);
        }
    }

    /** A device whose counters were read. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record CountedDevice(String name, BlockDevice.Kind kind, String writeCache, Boolean rotational, String driver,
                                boolean virtualDisk) {
    }

    /**
     * What one sync mode cost.
     *
     * @param flushes           flushes that reached the bottom of the device chain, -1 when not counted
     * @param kibWritten        KiB that reached the bottom, -1 when not counted
     * @param backgroundFlushes other work's flushes (estimated), -1 when not counted
     * @param write             each round's write step alone, or null where the round has no separate write
     *                          and sync (dsync, flush-only, no-sync)
     * @param sync              each round's sync step alone (what fio reports as the sync latency), or null
     *                          where the round has none
     * @param percentiles       the percentile curve of the rounds, percentiles rising, ending at the maximum
     * @param latencyRounds     how many of the rounds the latencies (percentiles, histogram, write, sync, slowest
     *                          rounds) hold: all but the first two after each of the probe's idle windows
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Cost(SyncMode mode, int blockSize, int rounds, double minMicros, double p50Micros, double p90Micros,
                       double p99Micros, double maxMicros, double roundsPerSecond, Latencies write, Latencies sync,
                       long flushes, long kibWritten, double flushesPerSync, long backgroundFlushes, long idleMillis,
                       List<Device> devices, List<LatencyDistribution.Bucket> histogram, List<Percentile> percentiles,
                       List<SlowRound> slowestRounds, String latencyNote, long latencyRounds) {
        public Cost {
            devices = List.copyOf(devices);
            histogram = List.copyOf(histogram);
            percentiles = List.copyOf(percentiles);
            slowestRounds = List.copyOf(slowestRounds);
        }

        /** A cost whose latencies hold every round. */
        public Cost(SyncMode mode, int blockSize, int rounds, double minMicros, double p50Micros, double p90Micros,
                    double p99Micros, double maxMicros, double roundsPerSecond, Latencies write, Latencies sync,
                    long flushes, long kibWritten, double flushesPerSync, long backgroundFlushes, long idleMillis,
                    List<Device> devices, List<LatencyDistribution.Bucket> histogram, List<Percentile> percentiles,
                    List<SlowRound> slowestRounds, String latencyNote) {
            this(mode, blockSize, rounds, minMicros, p50Micros, p90Micros, p99Micros, maxMicros, roundsPerSecond, write, sync,
                    flushes, kibWritten, flushesPerSync, backgroundFlushes, idleMillis, devices, histogram, percentiles,
                    slowestRounds, latencyNote, rounds);
        }

        /** Whether the write and the sync of each round were timed apart. */
        public boolean hasSplitLatencies() {
            return write != null && sync != null;
        }
    }

    /** One step of the rounds (the write or the sync) timed alone. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Latencies(double minMicros, double p50Micros, double p90Micros, double p99Micros, double maxMicros) {

        static Latencies of(LatencyDistribution d) {
            return d == null ? null : new Latencies(d.minMicros(), d.percentileMicros(50), d.percentileMicros(90),
                    d.percentileMicros(99), d.maxMicros());
        }
    }

    /** One point of the percentile curve: {@code percentile}% of the rounds took at most {@code micros}. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Percentile(double percentile, double micros) {
    }

    /**
     * A known recipe's figures and its gate.
     *
     * @param name          the preset ({@code etcd})
     * @param syncP50Micros the sync step alone, median; NaN when not measured
     * @param syncP99Micros the sync step alone, 99th percentile; NaN when not measured
     * @param limitMicros   the gate on the 99th percentile
     * @param pass          whether the 99th percentile is under the limit; null when not measured
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Preset(String name, double syncP50Micros, double syncP99Micros, double limitMicros, Boolean pass) {
    }

    /** One device's counter deltas; {@code idleFlushes} -1 when no idle windows were counted. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Device(String device, boolean terminal, long flushes, long kibWritten, long idleFlushes) {
    }

    /** One of the slowest rounds; {@code flushes} and {@code kibWritten} -1 when not counted per round. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record SlowRound(int round, double micros, long flushes, long kibWritten) {
    }

    /** What the closed loop's latencies are: raw, uncorrected. */
    public static final String LATENCY_NOTE = "closed loop: raw round latencies, no coordinated-omission correction";

    public static ResultData of(CheckResult r) {
        // Loops, not streams or lambdas: this runs on the command's cold path.
        List<Finding> findings = new ArrayList<>();
        for (io.flushcheck.verdict.Finding f : r.judgement().findings()) {
            findings.add(new Finding(f.code(), f.message(), f.evidence()));
        }
        List<Cost> costs = new ArrayList<>();
        for (SyncCost c : r.costs()) {
            costs.add(cost(c));
        }
        return new ResultData(r.path(), r.verdict(), r.elapsedMillis(), findings, storage(r.facts()), costs, null, null);
    }

    /** The same result, measured in {@code env}. */
    public ResultData withEnvironment(String env) {
        return new ResultData(path, verdict, elapsedMillis, findings, storage, costs, env, preset);
    }

    /** The same result with a preset's figures. */
    public ResultData withPreset(Preset p) {
        return new ResultData(path, verdict, elapsedMillis, findings, storage, costs, environment, p);
    }

    /** The cost of {@code mode}, or null when it was not measured. */
    public Cost cost(SyncMode mode) {
        for (Cost c : costs) {
            if (c.mode() == mode) {
                return c;
            }
        }
        return null;
    }

    private static Storage storage(StorageFacts f) {
        if (f == null) {
            return null;
        }
        List<CountedDevice> points = new ArrayList<>();
        for (BlockDevice d : f.flushPoints()) {
            points.add(new CountedDevice(d.name(), d.kind(), d.writeCache(), d.rotational(), d.driver(), d.virtualDisk()));
        }
        return new Storage(f.resolved(), f.fsType(), f.mount().mountPoint(), f.mount().mountId(), f.mount().source(),
                String.join(",", f.mount().mountOptions()), String.join(",", f.mount().superOptions()),
                f.device() != null ? f.deviceDescription() : null, points, f.flushPointsNote(),
                f.environment().container(), f.environment().hypervisor(), f.environment().interposers());
    }

    private static Cost cost(SyncCost c) {
        List<Device> devices = new ArrayList<>();
        for (DeviceDelta d : c.devices()) {
            devices.add(new Device(d.device(), d.terminal(), d.delta().flushes(), d.delta().kibWritten(),
                    d.idle() == null ? -1 : d.idle().flushes()));
        }
        List<SlowRound> slow = new ArrayList<>();
        for (io.flushcheck.probe.SlowRound s : c.slowest()) {
            slow.add(new SlowRound(s.index(), s.micros(), s.flushes() < 0 ? -1 : s.flushes(),
                    s.flushes() < 0 ? -1 : s.kibWritten()));
        }
        // flushes and kibWritten: what got all the way down the device chain (the fewest seen at any level), so a
        // nobarrier loop over a busy disk shows 0; flushesPerSync: what the syncs caused, other work's
        // (backgroundFlushes, estimated in the idle windows between the rounds) taken off first.
        // The percentile curve the HTML report draws, so that a result read back from JSON (a guest's) draws it too.
        List<Percentile> curve = new ArrayList<>();
        for (double[] p : PercentileCurve.of(c.latencies())) {
            curve.add(new Percentile(p[0], p[1]));
        }
        boolean split = c.hasSplitLatencies();
        return new Cost(c.mode(), c.blockSize(), c.rounds(), c.minMicros(), c.p50Micros(), c.p90Micros(), c.p99Micros(),
                c.maxMicros(), c.roundsPerSecond(), split ? Latencies.of(c.writeLatencies()) : null,
                split ? Latencies.of(c.syncLatencies()) : null, c.flushesReached() < 0 ? -1 : c.flushesReached(),
                c.kibReached() < 0 ? -1 : c.kibReached(), c.flushesPerSync(),
                c.backgroundFlushes() < 0 ? -1 : Math.round(c.backgroundFlushes()), c.idleNanos() / 1_000_000, devices,
                c.log2Buckets(), curve, slow, LATENCY_NOTE, c.latencyRounds());
    }
}

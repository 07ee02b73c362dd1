package io.flushcheck.report;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SlowRound;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.html.ModeFigures;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.Finding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON contract other tools read: {@code {"results":[{"path","verdict","elapsedMillis","findings",
 * "storage","costs"}]}}. Field names are stable; new fields may be added.
 */
public final class ResultJson {

    private ResultJson() {
    }

    public static String of(List<CheckResult> results) {
        // Loops, not forEach with lambdas, here and below: the command's first lambda costs a cold JVM
        // milliseconds of bootstrapping, for every run of a one-shot command.
        List<Object> list = new ArrayList<>();
        for (CheckResult r : results) {
            list.add(toMap(r));
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("results", list);
        return Json.write(root);
    }

    public static Map<String, Object> toMap(CheckResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("path", r.path());
        m.put("verdict", r.verdict().name());
        m.put("elapsedMillis", r.elapsedMillis());
        List<Object> findings = new ArrayList<>();
        for (Finding f : r.judgement().findings()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("code", f.code().name());
            fm.put("message", f.message());
            if (!f.evidence().isEmpty()) {
                fm.put("evidence", f.evidence());
            }
            findings.add(fm);
        }
        m.put("findings", findings);
        m.put("storage", storage(r.facts()));
        List<Object> costs = new ArrayList<>();
        for (SyncCost c : r.costs()) {
            costs.add(cost(c));
        }
        m.put("costs", costs);
        return m;
    }

    static Map<String, Object> storage(StorageFacts f) {
        Map<String, Object> s = new LinkedHashMap<>();
        if (f == null) {
            return s;
        }
        s.put("resolvedPath", f.resolved());
        s.put("fsType", f.fsType());
        s.put("mountPoint", f.mount().mountPoint());
        s.put("mountId", f.mount().mountId());
        s.put("source", f.mount().source());
        s.put("mountOptions", String.join(",", f.mount().mountOptions()));
        s.put("superOptions", String.join(",", f.mount().superOptions()));
        s.put("device", f.device() != null ? f.device().describeChain() : null);
        List<Object> points = new ArrayList<>();
        for (BlockDevice d : f.flushPoints()) {
            Map<String, Object> dm = new LinkedHashMap<>();
            dm.put("name", d.name());
            dm.put("kind", d.kind().name());
            dm.put("writeCache", d.writeCache());
            dm.put("rotational", d.rotational());
            dm.put("driver", d.driver());
            dm.put("virtualDisk", d.virtualDisk());
            points.add(dm);
        }
        s.put("countedDevices", points);
        if (f.flushPointsNote() != null) {
            s.put("countedDevicesNote", f.flushPointsNote());
        }
        s.put("container", f.environment().container());
        s.put("hypervisor", f.environment().hypervisor());
        s.put("interposers", f.environment().interposers());
        return s;
    }

    private static Map<String, Object> latencies(LatencyDistribution d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("minMicros", d.minMicros());
        m.put("p50Micros", d.percentileMicros(50));
        m.put("p90Micros", d.percentileMicros(90));
        m.put("p99Micros", d.percentileMicros(99));
        m.put("maxMicros", d.maxMicros());
        return m;
    }

    public static Map<String, Object> cost(SyncCost c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", c.mode().id());
        m.put("blockSize", c.blockSize());
        m.put("rounds", c.rounds());
        m.put("minMicros", c.minMicros());
        m.put("p50Micros", c.p50Micros());
        m.put("p90Micros", c.p90Micros());
        m.put("p99Micros", c.p99Micros());
        m.put("maxMicros", c.maxMicros());
        m.put("roundsPerSecond", c.roundsPerSecond());
        // The write and the sync of each round apart, where the mode has both: "sync" is what fio reports
        // as the sync latency (fsync/fdatasync alone).
        if (c.hasSplitLatencies()) {
            m.put("write", latencies(c.writeLatencies()));
            m.put("sync", latencies(c.syncLatencies()));
        }
        // flushes and kibWritten: what got all the way down the device chain (the fewest seen at any
        // level), so a nobarrier loop over a busy disk shows 0; per-device figures are under devices.
        m.put("flushes", c.flushesReached() < 0 ? null : c.flushesReached());
        m.put("kibWritten", c.kibReached() < 0 ? null : c.kibReached());
        // flushesPerSync: the flushes the syncs caused, other work's (backgroundFlushes, estimated in the
        // idle windows between the rounds) taken off first.
        m.put("flushesPerSync", c.flushesPerSync());
        m.put("backgroundFlushes", c.backgroundFlushes() < 0 ? null : Math.round(c.backgroundFlushes()));
        m.put("idleMillis", c.idleNanos() / 1_000_000);
        List<Object> devices = new ArrayList<>();
        for (DeviceDelta d : c.devices()) {
            Map<String, Object> dm = new LinkedHashMap<>();
            dm.put("device", d.device());
            dm.put("terminal", d.terminal());
            dm.put("flushes", d.delta().flushes());
            dm.put("kibWritten", d.delta().kibWritten());
            if (d.idle() != null) {
                dm.put("idleFlushes", d.idle().flushes());
            }
            devices.add(dm);
        }
        m.put("devices", devices);
        List<Object> buckets = new ArrayList<>();
        for (var b : c.log2Buckets()) {
            Map<String, Object> bm = new LinkedHashMap<>();
            bm.put("lowMicros", b.lowMicros());
            bm.put("highMicros", b.highMicros());
            bm.put("count", b.count());
            buckets.add(bm);
        }
        m.put("histogram", buckets);
        // The percentile curve the HTML report draws, so that a result read back from JSON (a guest's) draws it too.
        List<Object> curve = new ArrayList<>();
        for (double[] p : ModeFigures.curve(c.latencies())) {
            Map<String, Object> pm = new LinkedHashMap<>();
            pm.put("percentile", p[0]);
            pm.put("micros", p[1]);
            curve.add(pm);
        }
        m.put("percentiles", curve);
        List<Object> slow = new ArrayList<>();
        for (SlowRound s : c.slowest()) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("round", s.index());
            sm.put("micros", s.micros());
            if (s.flushes() >= 0) {
                sm.put("flushes", s.flushes());
                sm.put("kibWritten", s.kibWritten());
            }
            slow.add(sm);
        }
        m.put("slowestRounds", slow);
        m.put("latencyNote", "closed loop: raw round latencies, no coordinated-omission correction");
        return m;
    }
}

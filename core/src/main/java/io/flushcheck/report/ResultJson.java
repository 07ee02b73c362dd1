package io.flushcheck.report;

import com.google.gson.stream.JsonWriter;
import io.flushcheck.CheckResult;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The JSON contract other tools read: {@code {"results":[{"path","verdict","elapsedMillis","findings",
 * "storage","costs"}]}}, each result a {@link ResultData}. Field names are stable; new fields may be added.
 * Written and read here only, field by field, so that the contract is in one place: {@code storage} is
 * {@code {}} when no facts were read; {@code evidence}, {@code countedDevicesNote}, {@code idleFlushes}, a slow
 * round's {@code flushes} and {@code kibWritten}, a cost's {@code write} and {@code sync} (the round's two
 * steps timed apart, where it has both), {@code environment} and {@code preset} are left out when absent;
 * figures not measured are {@code null}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ResultJson {

    private ResultJson() {
    }

    /** {@code {"results": [...]}} of these results, ending in a newline. */
    public static String of(List<CheckResult> results) {
        // Loops, not forEach with lambdas, here and below: the command's first lambda costs a cold JVM
        // milliseconds of bootstrapping, for every run of a one-shot command.
        List<ResultData> data = new ArrayList<>();
        for (CheckResult r : results) {
            data.add(ResultData.of(r));
        }
        return ofData(data);
    }

    /** {@code {"results": [...]}} of these results, ending in a newline. */
    public static String ofData(List<ResultData> results) {
        StringWriter out = new StringWriter();
        try {
            JsonWriter w = Json.writer(out);
            w.beginObject();
            w.name("results");
            w.beginArray();
            for (ResultData r : results) {
                write(w, r);
            }
            w.endArray();
            w.endObject();
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.append('\n').toString();
    }

    static void write(JsonWriter w, ResultData r) throws IOException {
        write(w, r, null, List.of());
    }

    /** The result's element, with the components of {@code fields} and each cost's record after the contract's. */
    static void write(JsonWriter w, ResultData r, Record fields, List<? extends Record> costFields) throws IOException {
        w.beginObject();
        w.name("path").value(r.path());
        w.name("verdict").value(r.verdict().name());
        w.name("elapsedMillis").value(r.elapsedMillis());
        w.name("findings").beginArray();
        for (ResultData.Finding f : r.findings()) {
            w.beginObject();
            w.name("code").value(f.code().name());
            w.name("message").value(f.message());
            if (!f.evidence().isEmpty()) {
                w.name("evidence");
                w.beginObject();
                for (Map.Entry<String, String> e : f.evidence().entrySet()) {
                    w.name(e.getKey()).value(e.getValue());
                }
                w.endObject();
            }
            w.endObject();
        }
        w.endArray();
        w.name("storage");
        storage(w, r.storage());
        w.name("costs").beginArray();
        for (int i = 0; i < r.costs().size(); i++) {
            cost(w, r.costs().get(i), costFields.isEmpty() ? null : costFields.get(i));
        }
        w.endArray();
        if (r.environment() != null) {
            w.name("environment").value(r.environment());
        }
        if (r.preset() != null) {
            ResultData.Preset p = r.preset();
            w.name("preset").beginObject();
            w.name("name").value(p.name());
            w.name("syncP50Micros");
            Json.number(w, p.syncP50Micros());
            w.name("syncP99Micros");
            Json.number(w, p.syncP99Micros());
            w.name("limitMicros");
            Json.number(w, p.limitMicros());
            w.name("pass").value(p.pass());
            w.endObject();
        }
        if (fields != null) {
            Json.fields(w, fields);
        }
        w.endObject();
    }

    private static void storage(JsonWriter w, ResultData.Storage s) throws IOException {
        w.beginObject();
        if (s != null) {
            w.name("resolvedPath").value(s.resolvedPath());
            w.name("fsType").value(s.fsType());
            w.name("mountPoint").value(s.mountPoint());
            w.name("mountId").value(s.mountId());
            w.name("source").value(s.source());
            w.name("mountOptions").value(s.mountOptions());
            w.name("superOptions").value(s.superOptions());
            w.name("device").value(s.device());
            w.name("countedDevices").beginArray();
            for (ResultData.CountedDevice d : s.countedDevices()) {
                w.beginObject();
                w.name("name").value(d.name());
                w.name("kind").value(d.kind() == null ? null : d.kind().name());
                w.name("writeCache").value(d.writeCache());
                w.name("rotational").value(d.rotational());
                w.name("driver").value(d.driver());
                w.name("virtualDisk").value(d.virtualDisk());
                w.endObject();
            }
            w.endArray();
            if (s.countedDevicesNote() != null) {
                w.name("countedDevicesNote").value(s.countedDevicesNote());
            }
            w.name("container").value(s.container());
            w.name("hypervisor").value(s.hypervisor());
            w.name("interposers").beginArray();
            for (String i : s.interposers()) {
                w.value(i);
            }
            w.endArray();
        }
        w.endObject();
    }

    private static void cost(JsonWriter w, ResultData.Cost c, Record fields) throws IOException {
        w.beginObject();
        w.name("mode").value(c.mode().id());
        w.name("blockSize").value(c.blockSize());
        w.name("rounds").value(c.rounds());
        // The rounds the latencies hold: the first rounds after each idle window are left out of them.
        w.name("latencyRounds").value(c.latencyRounds());
        latencyFields(w, new ResultData.Latencies(c.minMicros(), c.p50Micros(), c.p90Micros(), c.p99Micros(),
                c.maxMicros()));
        w.name("roundsPerSecond");
        Json.number(w, c.roundsPerSecond());
        // The write and the sync of each round apart, where the mode has both: "sync" is what fio reports as the
        // sync latency (fsync/fdatasync alone).
        if (c.hasSplitLatencies()) {
            latencies(w.name("write"), c.write());
            latencies(w.name("sync"), c.sync());
        }
        counted(w.name("flushes"), c.flushes());
        counted(w.name("kibWritten"), c.kibWritten());
        w.name("flushesPerSync");
        Json.number(w, c.flushesPerSync());
        counted(w.name("backgroundFlushes"), c.backgroundFlushes());
        w.name("idleMillis").value(c.idleMillis());
        w.name("devices").beginArray();
        for (ResultData.Device d : c.devices()) {
            w.beginObject();
            w.name("device").value(d.device());
            w.name("terminal").value(d.terminal());
            w.name("flushes").value(d.flushes());
            w.name("kibWritten").value(d.kibWritten());
            if (d.idleFlushes() >= 0) {
                w.name("idleFlushes").value(d.idleFlushes());
            }
            w.endObject();
        }
        w.endArray();
        w.name("histogram").beginArray();
        for (LatencyDistribution.Bucket b : c.histogram()) {
            w.beginObject();
            w.name("lowMicros").value(b.lowMicros());
            w.name("highMicros").value(b.highMicros());
            w.name("count").value(b.count());
            w.endObject();
        }
        w.endArray();
        w.name("percentiles").beginArray();
        for (ResultData.Percentile p : c.percentiles()) {
            w.beginObject();
            w.name("percentile");
            Json.number(w, p.percentile());
            w.name("micros");
            Json.number(w, p.micros());
            w.endObject();
        }
        w.endArray();
        w.name("slowestRounds").beginArray();
        for (ResultData.SlowRound s : c.slowestRounds()) {
            w.beginObject();
            w.name("round").value(s.round());
            w.name("micros");
            Json.number(w, s.micros());
            if (s.flushes() >= 0) {
                w.name("flushes").value(s.flushes());
                w.name("kibWritten").value(s.kibWritten());
            }
            w.endObject();
        }
        w.endArray();
        w.name("latencyNote").value(c.latencyNote());
        if (fields != null) {
            Json.fields(w, fields);
        }
        w.endObject();
    }

    private static void latencies(JsonWriter w, ResultData.Latencies l) throws IOException {
        w.beginObject();
        latencyFields(w, l);
        w.endObject();
    }

    /** The fields of a latency summary, in the object being written: a mode's cost, or its writes' or syncs' alone. */
    private static void latencyFields(JsonWriter w, ResultData.Latencies l) throws IOException {
        w.name("minMicros");
        Json.number(w, l.minMicros());
        w.name("p50Micros");
        Json.number(w, l.p50Micros());
        w.name("p90Micros");
        Json.number(w, l.p90Micros());
        w.name("p99Micros");
        Json.number(w, l.p99Micros());
        w.name("maxMicros");
        Json.number(w, l.maxMicros());
    }

    private static void counted(JsonWriter w, long v) throws IOException {
        if (v < 0) {
            w.nullValue();
        } else {
            w.value(v);
        }
    }

    // ------------------------------------------------------------------ reading

    /** The results of a {@code {"results": [...]}} document. */
    public static List<ResultData> parse(String json) {
        List<ResultData> out = new ArrayList<>();
        for (Object o : JsonInput.list(JsonInput.parseObject(json), "results")) {
            out.add(read(o));
        }
        return out;
    }

    /**
     * One result element of the contract, as {@link JsonInput#parse} gives it.
     *
     * @throws IllegalArgumentException when it is not a result of the contract
     */
    public static ResultData read(Object element) {
        Map<String, Object> m = JsonInput.object(element, "a result");
        Verdict verdict = JsonInput.constant(m, "verdict", Verdict.class);
        if (verdict == null) {
            throw new IllegalArgumentException("a result without a verdict: " + m.keySet());
        }
        List<ResultData.Finding> findings = new ArrayList<>();
        for (Object o : JsonInput.list(m, "findings")) {
            Map<String, Object> f = JsonInput.object(o, "a finding");
            Map<String, String> evidence = new LinkedHashMap<>();
            Object ev = f.get("evidence");
            if (ev != null) {
                Map<String, Object> e = JsonInput.object(ev, "evidence");
                for (String k : e.keySet()) {
                    evidence.put(k, JsonInput.string(e, k));
                }
            }
            findings.add(new ResultData.Finding(JsonInput.constant(f, "code", FindingCode.class),
                    JsonInput.string(f, "message"), evidence));
        }
        List<ResultData.Cost> costs = new ArrayList<>();
        for (Object o : JsonInput.list(m, "costs")) {
            costs.add(readCost(JsonInput.object(o, "a cost")));
        }
        return new ResultData(JsonInput.string(m, "path"), verdict, JsonInput.longValue(m, "elapsedMillis", 0), findings,
                readStorage(m.get("storage")), costs, JsonInput.string(m, "environment"), readPreset(m.get("preset")));
    }

    private static ResultData.Preset readPreset(Object v) {
        if (v == null) {
            return null;
        }
        Map<String, Object> p = JsonInput.object(v, "a preset");
        return new ResultData.Preset(JsonInput.string(p, "name"), JsonInput.doubleValue(p, "syncP50Micros"),
                JsonInput.doubleValue(p, "syncP99Micros"), JsonInput.doubleValue(p, "limitMicros"), JsonInput.bool(p, "pass"));
    }

    private static ResultData.Latencies readLatencies(Object v, String what) {
        if (v == null) {
            return null;
        }
        Map<String, Object> l = JsonInput.object(v, what);
        return new ResultData.Latencies(JsonInput.doubleValue(l, "minMicros"), JsonInput.doubleValue(l, "p50Micros"),
                JsonInput.doubleValue(l, "p90Micros"), JsonInput.doubleValue(l, "p99Micros"), JsonInput.doubleValue(l, "maxMicros"));
    }

    private static ResultData.Storage readStorage(Object v) {
        if (v == null) {
            return null;
        }
        Map<String, Object> s = JsonInput.object(v, "storage");
        if (s.isEmpty()) {
            return null;
        }
        List<ResultData.CountedDevice> devices = new ArrayList<>();
        for (Object o : JsonInput.list(s, "countedDevices")) {
            Map<String, Object> d = JsonInput.object(o, "a counted device");
            devices.add(new ResultData.CountedDevice(JsonInput.string(d, "name"),
                    JsonInput.constant(d, "kind", BlockDevice.Kind.class), JsonInput.string(d, "writeCache"),
                    JsonInput.bool(d, "rotational"), JsonInput.string(d, "driver"),
                    Boolean.TRUE.equals(JsonInput.bool(d, "virtualDisk"))));
        }
        List<String> interposers = new ArrayList<>();
        for (Object o : JsonInput.list(s, "interposers")) {
            interposers.add(String.valueOf(o));
        }
        return new ResultData.Storage(JsonInput.string(s, "resolvedPath"), JsonInput.string(s, "fsType"),
                JsonInput.string(s, "mountPoint"), (int) JsonInput.longValue(s, "mountId", -1), JsonInput.string(s, "source"),
                JsonInput.string(s, "mountOptions"), JsonInput.string(s, "superOptions"), JsonInput.string(s, "device"),
                devices, JsonInput.string(s, "countedDevicesNote"), JsonInput.string(s, "container"),
                JsonInput.string(s, "hypervisor"), interposers);
    }

    private static ResultData.Cost readCost(Map<String, Object> c) {
        String id = JsonInput.string(c, "mode");
        SyncMode mode;
        try {
            mode = SyncMode.parse(String.valueOf(id));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"mode\" is not a sync mode: " + id, e);
        }
        List<ResultData.Device> devices = new ArrayList<>();
        for (Object o : JsonInput.list(c, "devices")) {
            Map<String, Object> d = JsonInput.object(o, "a device");
            devices.add(new ResultData.Device(JsonInput.string(d, "device"), Boolean.TRUE.equals(JsonInput.bool(d, "terminal")),
                    JsonInput.longValue(d, "flushes", -1), JsonInput.longValue(d, "kibWritten", -1),
                    JsonInput.longValue(d, "idleFlushes", -1)));
        }
        List<LatencyDistribution.Bucket> buckets = new ArrayList<>();
        for (Object o : JsonInput.list(c, "histogram")) {
            Map<String, Object> b = JsonInput.object(o, "a histogram bucket");
            buckets.add(new LatencyDistribution.Bucket(JsonInput.longValue(b, "lowMicros", 0),
                    JsonInput.longValue(b, "highMicros", 0), JsonInput.longValue(b, "count", 0)));
        }
        List<ResultData.Percentile> curve = new ArrayList<>();
        for (Object o : JsonInput.list(c, "percentiles")) {
            Map<String, Object> p = JsonInput.object(o, "a percentile");
            curve.add(new ResultData.Percentile(JsonInput.doubleValue(p, "percentile"), JsonInput.doubleValue(p, "micros")));
        }
        List<ResultData.SlowRound> slow = new ArrayList<>();
        for (Object o : JsonInput.list(c, "slowestRounds")) {
            Map<String, Object> s = JsonInput.object(o, "a slow round");
            slow.add(new ResultData.SlowRound((int) JsonInput.longValue(s, "round", 0), JsonInput.doubleValue(s, "micros"),
                    JsonInput.longValue(s, "flushes", -1), JsonInput.longValue(s, "kibWritten", -1)));
        }
        long rounds = JsonInput.longValue(c, "rounds", 0);
        long latencyRounds = JsonInput.longValue(c, "latencyRounds", rounds);
        if (latencyRounds < 0 || latencyRounds > rounds) {
            throw new IllegalArgumentException("\"latencyRounds\" is " + latencyRounds + ", not between 0 and the "
                    + rounds + " rounds");
        }
        return new ResultData.Cost(mode, (int) JsonInput.longValue(c, "blockSize", 0),
                (int) rounds, JsonInput.doubleValue(c, "minMicros"),
                JsonInput.doubleValue(c, "p50Micros"), JsonInput.doubleValue(c, "p90Micros"),
                JsonInput.doubleValue(c, "p99Micros"), JsonInput.doubleValue(c, "maxMicros"),
                JsonInput.doubleValue(c, "roundsPerSecond"), readLatencies(c.get("write"), "the write step"),
                readLatencies(c.get("sync"), "the sync step"), JsonInput.longValue(c, "flushes", -1),
                JsonInput.longValue(c, "kibWritten", -1), JsonInput.doubleValue(c, "flushesPerSync"),
                JsonInput.longValue(c, "backgroundFlushes", -1), JsonInput.longValue(c, "idleMillis", 0), devices, buckets,
                curve, slow, JsonInput.string(c, "latencyNote"), latencyRounds);
    }
}

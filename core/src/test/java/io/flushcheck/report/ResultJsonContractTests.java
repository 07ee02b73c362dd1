package io.flushcheck.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SlowRound;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import io.flushcheck.testing.JsonShape;
import io.flushcheck.testing.MiniJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON contract of a result ({@code flushcheck --json}, the guests' results, {@code @MeasureSyncCost}'s
 * files): every field name and the kind of its value, with every optional field present, and the shapes of
 * the fields that are absent or empty.
 */
class ResultJsonContractTests {

    static final MountInfo ROOT = MountInfo.parse("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,errors=remount-ro");
    static final BlockDevice VDA = new BlockDevice("vda", BlockDevice.Kind.DISK, "write back", true, "virtio_blk",
            null, null, null, List.of());

    /** A result with every optional field of the contract present. */
    static CheckResult full() {
        StorageFacts facts = new StorageFacts("/data", "/data", ROOT, VDA, null, List.of(VDA), "every local disk",
                new Environment("docker", "kvm", List.of("libeatmydata.so"), List.of()));
        LatencyDistribution h = LatencyDistribution.ofNanos(200_000, 300_000, 10_000_000);
        SyncCost cost = new SyncCost(SyncMode.OVERWRITE_FDATASYNC, 4096, 3, h, 10_500_000, 2_000_000,
                List.of(new DeviceDelta("vda", true, new DeviceStat(3, 24, 3), new DeviceStat(0, 0, 1))),
                List.of(new SlowRound(2, 10_000_000, 1, 4), new SlowRound(1, 300_000, -1, -1)),
                new SlowRound(1, 300_000, 1, 4), LatencyDistribution.ofNanos(20_000, 30_000, 40_000),
                LatencyDistribution.ofNanos(180_000, 270_000, 9_960_000));
        Judgement j = new Judgement(Verdict.REAL_FLUSH, List.of(
                new Finding(FindingCode.FLUSHES_REACHED, "the flushes reached vda", Map.of("mode", "overwrite-fdatasync")),
                Finding.of(FindingCode.VIRTUAL_DISK, "vda is a virtual disk")));
        return new CheckResult("/data", facts, List.of(cost), j, 12);
    }

    @Test
    void everyFieldOfAResult() {
        assertThat(JsonShape.of(ResultJson.of(List.of(full())))).containsExactlyInAnyOrder(
                "results[].costs[].backgroundFlushes: number",
                "results[].costs[].blockSize: number",
                "results[].costs[].devices[].device: string",
                "results[].costs[].devices[].flushes: number",
                "results[].costs[].devices[].idleFlushes: number",
                "results[].costs[].devices[].kibWritten: number",
                "results[].costs[].devices[].terminal: boolean",
                "results[].costs[].flushes: number",
                "results[].costs[].flushesPerSync: number",
                "results[].costs[].histogram[].count: number",
                "results[].costs[].histogram[].highMicros: number",
                "results[].costs[].histogram[].lowMicros: number",
                "results[].costs[].idleMillis: number",
                "results[].costs[].kibWritten: number",
                "results[].costs[].latencyNote: string",
                "results[].costs[].latencyRounds: number",
                "results[].costs[].maxMicros: number",
                "results[].costs[].minMicros: number",
                "results[].costs[].mode: string",
                "results[].costs[].p50Micros: number",
                "results[].costs[].p90Micros: number",
                "results[].costs[].p99Micros: number",
                "results[].costs[].percentiles[].micros: number",
                "results[].costs[].percentiles[].percentile: number",
                "results[].costs[].rounds: number",
                "results[].costs[].roundsPerSecond: number",
                "results[].costs[].slowestRounds[].flushes: number",
                "results[].costs[].slowestRounds[].kibWritten: number",
                "results[].costs[].slowestRounds[].micros: number",
                "results[].costs[].slowestRounds[].round: number",
                "results[].costs[].sync.maxMicros: number",
                "results[].costs[].sync.minMicros: number",
                "results[].costs[].sync.p50Micros: number",
                "results[].costs[].sync.p90Micros: number",
                "results[].costs[].sync.p99Micros: number",
                "results[].costs[].write.maxMicros: number",
                "results[].costs[].write.minMicros: number",
                "results[].costs[].write.p50Micros: number",
                "results[].costs[].write.p90Micros: number",
                "results[].costs[].write.p99Micros: number",
                "results[].elapsedMillis: number",
                "results[].findings[].code: string",
                "results[].findings[].evidence.mode: string",
                "results[].findings[].message: string",
                "results[].path: string",
                "results[].storage.container: string",
                "results[].storage.countedDevices[].driver: string",
                "results[].storage.countedDevices[].kind: string",
                "results[].storage.countedDevices[].name: string",
                "results[].storage.countedDevices[].rotational: boolean",
                "results[].storage.countedDevices[].virtualDisk: boolean",
                "results[].storage.countedDevices[].writeCache: string",
                "results[].storage.countedDevicesNote: string",
                "results[].storage.device: string",
                "results[].storage.fsType: string",
                "results[].storage.hypervisor: string",
                "results[].storage.interposers[]: string",
                "results[].storage.mountId: number",
                "results[].storage.mountOptions: string",
                "results[].storage.mountPoint: string",
                "results[].storage.resolvedPath: string",
                "results[].storage.source: string",
                "results[].storage.superOptions: string",
                "results[].verdict: string");
    }

    @Test
    void fieldOrderAndValues() {
        Map<String, Object> r = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(
                ResultJson.of(List.of(full())))).get("results")).get(0));
        assertThat(r.keySet()).containsExactly("path", "verdict", "elapsedMillis", "findings", "storage", "costs");
        assertThat(r).containsEntry("verdict", "REAL_FLUSH").containsEntry("elapsedMillis", 12L);
        Map<String, Object> storage = MiniJson.object(r.get("storage"));
        assertThat(storage.keySet()).containsExactly("resolvedPath", "fsType", "mountPoint", "mountId", "source",
                "mountOptions", "superOptions", "device", "countedDevices", "countedDevicesNote", "container",
                "hypervisor", "interposers");
        assertThat(storage).containsEntry("mountId", 27L).containsEntry("mountOptions", "rw,relatime")
                .containsEntry("device", "vda");
        Map<String, Object> cost = MiniJson.object(MiniJson.array(r.get("costs")).get(0));
        assertThat(cost.keySet()).containsExactly("mode", "blockSize", "rounds", "latencyRounds", "minMicros", "p50Micros", "p90Micros",
                "p99Micros", "maxMicros", "roundsPerSecond", "write", "sync", "flushes", "kibWritten", "flushesPerSync",
                "backgroundFlushes", "idleMillis", "devices", "histogram", "percentiles", "slowestRounds", "latencyNote");
        assertThat(MiniJson.object(cost.get("write")).keySet()).containsExactly("minMicros", "p50Micros", "p90Micros",
                "p99Micros", "maxMicros");
        assertThat(((Number) MiniJson.object(cost.get("sync")).get("p50Micros")).doubleValue()).isBetween(269.0, 271.0);
        assertThat(((Number) MiniJson.object(cost.get("write")).get("p50Micros")).doubleValue()).isBetween(29.0, 31.0);
        List<Object> curve = MiniJson.array(cost.get("percentiles"));
        Map<String, Object> last = MiniJson.object(curve.get(curve.size() - 1));
        assertThat(last.keySet()).containsExactly("percentile", "micros");
        assertThat(last).containsEntry("percentile", 100L);
        assertThat(((Number) last.get("micros")).doubleValue()).isBetween(9_990.0, 10_010.0);
        assertThat(cost).containsEntry("mode", "overwrite-fdatasync").containsEntry("flushes", 3L)
                .containsEntry("idleMillis", 2L);
        assertThat(((Number) cost.get("p50Micros")).doubleValue()).isBetween(299.0, 301.0);
        Map<String, Object> finding = MiniJson.object(MiniJson.array(r.get("findings")).get(0));
        assertThat(finding).containsEntry("code", "FLUSHES_REACHED")
                .containsEntry("evidence", Map.of("mode", "overwrite-fdatasync"));
        assertThat(MiniJson.object(MiniJson.array(r.get("findings")).get(1))).doesNotContainKey("evidence");
    }

    @Test
    void absentFactsAreAnEmptyObjectAndUncountedFiguresNull() {
        LatencyDistribution h = LatencyDistribution.ofNanos(2_000, 3_000);
        SyncCost cost = new SyncCost(SyncMode.NO_SYNC, 4096, 2, h, 5_000, List.of(), List.of(), null);
        CheckResult r = new CheckResult("/x", null, List.of(cost),
                new Judgement(Verdict.UNKNOWN, List.of(Finding.of(FindingCode.UNSUPPORTED_OS, "not Linux"))), 1);
        String json = ResultJson.of(List.of(r));
        assertThat(MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(json))
                .get("results")).get(0)).get("costs")).get(0))).as("a mode without a separate sync step")
                .doesNotContainKeys("write", "sync").containsKey("percentiles");
        assertThat(JsonShape.of(json)).contains("results[].storage: {}", "results[].costs[].devices: []",
                "results[].costs[].flushes: null", "results[].costs[].kibWritten: null",
                "results[].costs[].flushesPerSync: null", "results[].costs[].backgroundFlushes: null",
                "results[].costs[].slowestRounds: []");
        assertThat(json).contains("\"storage\": {},");
    }

    @Test
    void whatIsWrittenReadsBackTheSame() {
        CheckResult full = full();
        ResultData data = ResultData.of(full);
        List<ResultData> back = ResultJson.parse(ResultJson.of(List.of(full)));
        assertThat(back).hasSize(1);
        // Numbers are written to three decimals: compare what is written again.
        assertThat(Json.write(back.get(0))).isEqualTo(Json.write(data));
        assertThat(back.get(0).verdict()).isEqualTo(Verdict.REAL_FLUSH);
        assertThat(back.get(0).cost(SyncMode.OVERWRITE_FDATASYNC).flushes()).isEqualTo(3);
        assertThat(back.get(0).storage().countedDevices().get(0).kind()).isEqualTo(BlockDevice.Kind.DISK);
        assertThat(ResultJson.read(JsonInput.parse(Json.write(data.withEnvironment("host")))).environment())
                .isEqualTo("host");
        assertThat(back.get(0).environment()).isNull();
    }

    @Test
    void aPresetAndAnEnvironmentFollowTheCosts() {
        ResultData data = ResultData.of(full()).withEnvironment("host")
                .withPreset(new ResultData.Preset("etcd", 270, 9_960, 10_000, true));
        String json = ResultJson.ofData(List.of(data));
        assertThat(JsonShape.of(json)).contains("results[].environment: string", "results[].preset.name: string",
                "results[].preset.syncP50Micros: number", "results[].preset.syncP99Micros: number",
                "results[].preset.limitMicros: number", "results[].preset.pass: boolean");
        Map<String, Object> r = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(json)).get("results")).get(0));
        assertThat(r.keySet()).containsExactly("path", "verdict", "elapsedMillis", "findings", "storage", "costs",
                "environment", "preset");
        assertThat(MiniJson.object(r.get("preset")).keySet()).containsExactly("name", "syncP50Micros", "syncP99Micros",
                "limitMicros", "pass");
        ResultData back = ResultJson.parse(json).get(0);
        assertThat(back.preset()).isEqualTo(data.preset());
        assertThat(Json.write(back)).isEqualTo(Json.write(data));

        String unmeasured = ResultJson.ofData(List.of(ResultData.of(full())
                .withPreset(new ResultData.Preset("etcd", Double.NaN, Double.NaN, 10_000, null))));
        assertThat(JsonShape.of(unmeasured)).contains("results[].preset.syncP99Micros: null", "results[].preset.pass: null");
        assertThat(ResultJson.parse(unmeasured).get(0).preset().pass()).isNull();
    }

    @Test
    void theRoundsTheLatenciesHoldAreWrittenAndReadBack() {
        CheckResult one = full();
        SyncCost c = one.costs().get(0);
        // Four rounds run, the latencies of three: the first after an idle window is left out of them.
        SyncCost leftOut = new SyncCost(c.mode(), c.blockSize(), 4, c.latencies(), c.loopNanos(), c.idleNanos(), c.devices(),
                c.slowest(), c.medianRound(), c.writeLatencies(), c.syncLatencies());
        String json = ResultJson.of(List.of(new CheckResult(one.path(), one.facts(), List.of(leftOut), one.judgement(), 12)));
        Map<String, Object> cost = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.array(MiniJson.object(
                MiniJson.parse(json)).get("results")).get(0)).get("costs")).get(0));
        assertThat(cost).containsEntry("rounds", 4L).containsEntry("latencyRounds", 3L);
        assertThat(ResultJson.parse(json).get(0).costs().get(0).latencyRounds()).isEqualTo(3);

        // Written before the field existed, or by a guest that does not write it: the latencies hold every round.
        String before = json.replace("\"latencyRounds\": 3,", "");
        assertThat(before).doesNotContain("latencyRounds");
        assertThat(ResultJson.parse(before).get(0).costs().get(0).latencyRounds()).isEqualTo(4);
        // Read from anyone: more rounds in the latencies than were run is refused, with the figures.
        assertThatThrownBy(() -> ResultJson.parse(json.replace("\"latencyRounds\": 3,", "\"latencyRounds\": 5,")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("\"latencyRounds\" is 5, not between 0 and the 4 rounds");
    }

    @Test
    void anEmptyListOfResults() {
        assertThat(ResultJson.of(List.of())).isEqualTo("{\n  \"results\": []\n}\n");
    }
}

package io.flushcheck.cli.vm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.Json;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import io.flushcheck.vm.CacheMode;
import io.flushcheck.vm.VmComparison;
import io.flushcheck.vm.VmResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fields of {@code flushcheck vm --json} and their order, from results made by hand (no QEMU). */
class VmJsonTests {

    @Test
    void theHostThenEachGuestThenTheComparisonThenTheFailures() {
        Judgement judged = new Judgement(Verdict.REAL_FLUSH, List.of(Finding.of(FindingCode.NOT_PROBED, "by hand")));
        SyncCost hostCost = new SyncCost(SyncMode.APPEND_FSYNC, 4096, 2, LatencyDistribution.ofNanos(900_000, 1_000_000),
                1_900_000, List.of(new DeviceDelta("sda", true, new DeviceStat(2, 16, 2))), List.of(), null);
        SyncCost guestCost = new SyncCost(SyncMode.APPEND_FSYNC, 4096, 2, LatencyDistribution.ofNanos(50_000, 60_000),
                110_000, List.of(new DeviceDelta("vda", false, new DeviceStat(2, 16, 2)),
                        new DeviceDelta("loop5", true, new DeviceStat(2, 16, 0))), List.of(), null);
        CheckResult host = new CheckResult("/images", null, List.of(hostCost), judged, 4);
        VmResult guest = new VmResult(CacheMode.UNSAFE, "tcg", "no /dev/kvm", "write back", "loop5",
                new CheckResult("qemu:/data", null, List.of(guestCost), judged, 6), 700);

        Map<String, Object> doc = MiniJson.object(MiniJson.parse(Json.write(VmCommand.jsonDocument(host, List.of(guest),
                VmComparison.of(host, List.of(guest)), Map.of("qemu/cache=none", "qemu/cache=none: no image")))));

        assertThat(doc.keySet()).containsExactly("results", "comparison", "failures");
        List<Object> results = MiniJson.array(doc.get("results"));
        assertThat(MiniJson.object(results.get(0)).keySet()).containsExactly("path", "verdict", "elapsedMillis",
                "findings", "storage", "costs", "environment");
        Map<String, Object> g = MiniJson.object(results.get(1));
        assertThat(g.keySet()).containsExactly("path", "verdict", "elapsedMillis", "findings", "storage",
                "costs", "environment", "cacheMode", "accelerator", "acceleratorReason", "guestWriteCache", "hostDevice", "bootMillis",
                "guestFlushes", "hostFlushes");
        assertThat(g).containsEntry("guestFlushes", 2L).containsEntry("hostFlushes", 0L)
                .containsEntry("environment", "qemu/cache=unsafe").containsEntry("cacheMode", "unsafe");
        Map<String, Object> cost = MiniJson.object(MiniJson.array(g.get("costs")).get(0));
        List<String> costKeys = new ArrayList<>(cost.keySet());
        assertThat(costKeys.subList(costKeys.size() - 3, costKeys.size())).containsExactly("latencyNote", "guestFlushes",
                "hostFlushes");
        assertThat(cost).containsEntry("guestFlushes", 2L).containsEntry("hostFlushes", 0L);
        assertThat(MiniJson.object(MiniJson.array(MiniJson.object(results.get(0)).get("costs")).get(0)))
                .as("the host's costs have no guest fields").doesNotContainKeys("guestFlushes", "hostFlushes");
        assertThat(MiniJson.object(doc.get("comparison")).keySet()).containsExactly("host", "rows");
        assertThat(MiniJson.array(MiniJson.object(doc.get("comparison")).get("rows"))).hasSize(2);
        assertThat(doc.get("failures")).isEqualTo(List.of(Map.of("environment", "qemu/cache=none",
                "reason", "qemu/cache=none: no image")));
    }
}

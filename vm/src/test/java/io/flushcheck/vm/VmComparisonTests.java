package io.flushcheck.vm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.Json;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.testing.JsonShape;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The host/guest comparison of {@code flushcheck vm} from results made by hand (no QEMU): its rows, its table and
 * its JSON, field by field.
 */
class VmComparisonTests {

    static SyncCost cost(SyncMode mode, long micros, List<DeviceDelta> devices) {
        long[] nanos = new long[10];
        Arrays.fill(nanos, micros * 1000);
        return new SyncCost(mode, 4096, nanos.length, LatencyDistribution.ofNanos(nanos), micros * 10_000, devices,
                List.of(), null);
    }

    static DeviceDelta device(String name, boolean terminal, long flushes) {
        return new DeviceDelta(name, terminal, new DeviceStat(10, 80, flushes));
    }

    static CheckResult result(String path, Verdict v, SyncCost... costs) {
        return new CheckResult(path, null, List.of(costs), new Judgement(v, List.of(Finding.of(FindingCode.NOT_PROBED,
                "by hand"))), 5);
    }

    static VmComparison comparison() {
        CheckResult host = result("/var/lib/images", Verdict.REAL_FLUSH,
                cost(SyncMode.OVERWRITE_FDATASYNC, 800, List.of(device("sda", true, 10))),
                cost(SyncMode.APPEND_FSYNC, 1600, List.of()));
        VmResult none = new VmResult(CacheMode.NONE, "kvm", "/dev/kvm", "write back", "loop5", result("qemu:/data",
                Verdict.REAL_FLUSH,
                cost(SyncMode.OVERWRITE_FDATASYNC, 1200, List.of(device("vda", false, 10), device("loop5", true, 10))),
                cost(SyncMode.APPEND_FSYNC, 2000, List.of(device("vda", false, 20), device("loop5", true, 20)))), 900);
        VmResult unsafe = new VmResult(CacheMode.UNSAFE, "kvm", "/dev/kvm", "write back", "loop6", result("qemu:/data",
                Verdict.NO_REAL_FLUSH,
                cost(SyncMode.OVERWRITE_FDATASYNC, 20, List.of(device("vda", false, 10), device("loop6", true, 0)))), 800);
        return VmComparison.of(host, List.of(none, unsafe));
    }

    @Test
    void theRowsComparePerModeWithTheHostFirst() {
        assertThat(comparison().rows()).extracting(VmComparison.Row::environment)
                .containsExactly("host", "qemu/cache=none", "qemu/cache=unsafe", "host", "qemu/cache=none",
                        "qemu/cache=unsafe");
        VmComparison.Row unsafe = comparison().rows().get(2);
        assertThat(unsafe.guestFlushes()).isEqualTo(10);
        assertThat(unsafe.hostFlushes()).isZero();
        assertThat(unsafe.p50Ratio()).isCloseTo(0.025, Offset.offset(1e-4));
    }

    @Test
    void theTableHasAColumnPerFigureAndTheModeOnlyOnItsFirstRow() {
        // Latencies come from a histogram, so 1600 µs reads 1601.
        assertThat(comparison().text()).isEqualTo("""
                host/guest comparison (host: /var/lib/images; ratios are guest/host; host flushes: what reached the host's disk)
                mode                environment       verdict       p50 µs p99 µs guest flushes host flushes p50 ratio p99 ratio
                overwrite-fdatasync host              REAL_FLUSH       800    800             -           10     1.00x     1.00x
                                    qemu/cache=none   REAL_FLUSH      1200   1200            10           10     1.50x     1.50x
                                    qemu/cache=unsafe NO_REAL_FLUSH   20.0   20.0            10            0   0.0250x   0.0250x
                append-fsync        host              REAL_FLUSH      1601   1601             -            -     1.00x     1.00x
                                    qemu/cache=none   REAL_FLUSH      2001   2001            20           20     1.25x     1.25x
                                    qemu/cache=unsafe NO_REAL_FLUSH      -      -             -            -         -         -
                """);
    }

    @Test
    void theJsonHasEveryFieldInItsPlace() {
        String json = Json.write(comparison().document());
        assertThat(json).startsWith("""
                {
                  "host": "/var/lib/images",
                  "rows": [
                    {
                      "mode": "overwrite-fdatasync",
                      "environment": "host",
                      "verdict": "REAL_FLUSH",
                      "p50Micros": 800.255,
                      "p99Micros": 800.255,
                      "guestFlushes": null,
                      "hostFlushes": 10,
                      "p50Ratio": 1,
                      "p99Ratio": 1
                    },
                    {
                      "mode": "overwrite-fdatasync",
                      "environment": "qemu/cache=none",
                      "verdict": "REAL_FLUSH",
                      "p50Micros": 1200.127,
                      "p99Micros": 1200.127,
                      "guestFlushes": 10,
                      "hostFlushes": 10,
                      "p50Ratio": 1.5,
                      "p99Ratio": 1.5
                    },
                """).endsWith("""
                    {
                      "mode": "append-fsync",
                      "environment": "qemu/cache=unsafe",
                      "verdict": "NO_REAL_FLUSH",
                      "p50Micros": null,
                      "p99Micros": null,
                      "guestFlushes": null,
                      "hostFlushes": null,
                      "p50Ratio": null,
                      "p99Ratio": null
                    }
                  ]
                }
                """);
        assertThat(JsonShape.of(json)).containsExactly("host: string", "rows[].environment: string",
                "rows[].guestFlushes: null", "rows[].guestFlushes: number", "rows[].hostFlushes: null",
                "rows[].hostFlushes: number", "rows[].mode: string", "rows[].p50Micros: null", "rows[].p50Micros: number",
                "rows[].p50Ratio: null", "rows[].p50Ratio: number", "rows[].p99Micros: null", "rows[].p99Micros: number",
                "rows[].p99Ratio: null", "rows[].p99Ratio: number", "rows[].verdict: string");
    }
}

package io.flushcheck.cli.vm;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.cli.InProcess;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.report.Json;
import io.flushcheck.report.JsonInput;
import io.flushcheck.report.ResultData;
import io.flushcheck.vm.VmTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code flushcheck vm}: the host and one real QEMU guest per cache mode, judged by the host's loop device. */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
class VmCommandTests {

    @Test
    @SuppressWarnings("unchecked")
    void jsonJudgesEveryCacheModeByTheFlushesTheHostDiskReceived() throws Exception {
        VmTesting.requireVm();
        Path dir = VmTesting.hostDir("command");
        Path page = dir.resolveSibling(dir.getFileName() + ".html");
        long t0 = System.nanoTime();
        InProcess.Run run = InProcess.run("vm", "--json", "--html", page.toString(), "--rounds", "50", "--modes",
                "append-fsync,overwrite-fdatasync", "--host-dir", dir.toString());
        System.err.printf("flushcheck vm --json: %.1f s%n%s", (System.nanoTime() - t0) / 1e9, run.err());
        assertThat(run.exit()).as(run.err()).isZero();

        Map<String, Object> doc = JsonInput.parseObject(run.out());
        assertThat(doc.get("failures")).isEqualTo(List.of());
        List<Map<String, Object>> results = new ArrayList<>();
        ((List<Object>) doc.get("results")).forEach(o -> results.add((Map<String, Object>) o));
        assertThat(results).extracting(r -> r.get("environment")).containsExactly("host", "qemu/cache=none",
                "qemu/cache=writeback", "qemu/cache=writethrough", "qemu/cache=directsync", "qemu/cache=unsafe");
        assertThat(results).extracting(r -> r.get("verdict")).containsExactly("REAL_FLUSH", "REAL_FLUSH", "REAL_FLUSH",
                "REAL_FLUSH", "REAL_FLUSH", "NO_REAL_FLUSH");
        // Every guest's flushes are counted on the host's side: 0 only where QEMU dropped them.
        for (Map<String, Object> g : results.subList(1, 6)) {
            long host = ((Number) g.get("hostFlushes")).longValue();
            if ("qemu/cache=unsafe".equals(g.get("environment"))) {
                assertThat(host).as("unsafe host flushes").isLessThan(10);
                assertThat(((Number) g.get("guestFlushes")).longValue()).isGreaterThanOrEqualTo(100);
            } else {
                assertThat(host).as(g.get("environment") + " host flushes").isGreaterThanOrEqualTo(100);
            }
        }

        // A guest's result has the fields of a path's result.
        CheckResult local = Flushcheck.check(dir, CheckOptions.defaults().withPlan(ProbePlan.verification().withRounds(4)),
                ProbeListener.NONE);
        Map<String, Object> path = JsonInput.parseObject(Json.write(ResultData.of(local)));
        Map<String, Object> pathCost = (Map<String, Object>) ((List<Object>) path.get("costs")).get(0);
        // Less the optional write and sync apart: the guest's probe times whole rounds.
        Set<String> costFields = new HashSet<>(pathCost.keySet());
        costFields.removeAll(Set.of("write", "sync"));
        for (Map<String, Object> r : results) {
            assertThat(r.keySet()).as((String) r.get("environment")).containsAll(path.keySet());
            List<Object> costs = (List<Object>) r.get("costs");
            assertThat(costs).hasSize(2);
            assertThat(((Map<String, Object>) costs.get(0)).keySet()).containsAll(costFields);
        }
        // --html: the comparison, then the host and every guest as a path.
        String html = Files.readString(page);
        assertThat(html).contains("Host against QEMU guests");
        for (Map<String, Object> r : results) {
            assertThat(html).contains(">" + r.get("environment") + "<");
        }
        Files.delete(page);
        Map<String, Object> comparison = (Map<String, Object>) doc.get("comparison");
        assertThat((List<Object>) comparison.get("rows")).hasSize(12).allSatisfy(row ->
                assertThat((Map<String, Object>) row).containsKeys("p50Ratio", "p99Ratio", "guestFlushes", "hostFlushes"));

        assertThat(VmTesting.qemuProcessesFor(dir)).isEmpty();
        assertThat(VmTesting.loopsBackedIn(dir)).isEmpty();
        assertThat(VmTesting.ownFilesIn(dir)).isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void theBlockSizeIsWhatTheGuestWritesPerRound() throws Exception {
        VmTesting.requireVm();
        Path dir = VmTesting.hostDir("block-size");
        InProcess.Run run = InProcess.run("vm", "--json", "--cache", "none", "--rounds", "20", "--modes",
                "overwrite-fdatasync", "--block-size", "64k", "--host-dir", dir.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        List<Object> results = (List<Object>) JsonInput.parseObject(run.out()).get("results");
        Map<String, Object> guest = (Map<String, Object>) results.get(1);
        Map<String, Object> cost = (Map<String, Object>) ((List<Object>) guest.get("costs")).get(0);
        assertThat(((Number) cost.get("blockSize")).intValue()).isEqualTo(65536);
        // What the host's loop device received: at least the 20 rounds of 64 KiB.
        List<Object> devices = (List<Object>) cost.get("devices");
        Map<String, Object> loop = (Map<String, Object>) devices.get(1);
        assertThat(((Number) loop.get("kibWritten")).longValue()).as("%s", loop).isGreaterThanOrEqualTo(20 * 64);
        assertThat(VmTesting.loopsBackedIn(dir)).isEmpty();
        assertThat(VmTesting.ownFilesIn(dir)).isEmpty();
    }

    @Test
    void badCacheModesAndModesTheGuestLacksAreUsageErrors() {
        InProcess.Run cache = InProcess.run("vm", "--cache", "none,bogus");
        assertThat(cache.exit()).isEqualTo(2);
        assertThat(cache.err()).contains("--cache: unknown cache mode 'bogus' (known: none, writeback, writethrough, "
                + "directsync, unsafe)");
        InProcess.Run mode = InProcess.run("vm", "--modes", "java-force");
        assertThat(mode.exit()).isEqualTo(2);
        assertThat(mode.err()).contains("the guest's probe has no mode java-force");
        InProcess.Run rounds = InProcess.run("vm", "--rounds", "100001");
        assertThat(rounds.exit()).isEqualTo(2);
        assertThat(rounds.err()).contains("at most 100000");
        InProcess.Run block = InProcess.run("vm", "--block-size", "100");
        assertThat(block.exit()).isEqualTo(2);
        assertThat(block.err()).contains("--block-size");
        // Before any guest is prepared: a page that cannot be written is refused first.
        InProcess.Run page = InProcess.run("vm", "--html", "/nonexistent-flushcheck-dir/vm.html", "--host-dir", "/dev/shm");
        assertThat(page.exit()).isEqualTo(2);
        assertThat(page.err()).contains("--html: the directory of '/nonexistent-flushcheck-dir/vm.html' does not exist");
    }
}

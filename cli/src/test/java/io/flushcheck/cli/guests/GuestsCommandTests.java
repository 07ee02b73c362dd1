package io.flushcheck.cli.guests;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.cli.Main;
import io.flushcheck.guest.GuestComparison;
import io.flushcheck.guest.GuestTesting;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.report.JsonInput;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.ResultJson;
import io.flushcheck.testing.MiniJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flushcheck guests --json}: one result per environment, with the fields of a host path's result. */
class GuestsCommandTests {

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasOneResultPerEnvironmentWithTheFieldsOfAPath(@TempDir Path hostDir) {
        GuestTesting.requireDockerAndBaseImage();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int code = Main.run(List.of("guests", "--json", "--rounds", "32", "--modes",
                        "append-fsync,overwrite-fdatasync,no-sync", "--host-dir", Path.of("").toAbsolutePath().toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        System.err.printf("flushcheck guests --json: %.1f s%n%s", (System.nanoTime() - t0) / 1e9, err);
        assertThat(code).as(err.toString()).isZero();
        assertThat(err.toString()).contains("flushcheck guests: debian-bookworm-jre17/overlay: REAL_FLUSH (");

        Map<String, Object> doc = JsonInput.parseObject(out.toString(StandardCharsets.UTF_8));
        assertThat(doc.get("failures")).as("every environment answered").isEqualTo(List.of());
        List<Map<String, Object>> results = new ArrayList<>();
        ((List<Object>) doc.get("results")).forEach(o -> results.add((Map<String, Object>) o));
        assertThat(results).extracting(r -> r.get("environment")).containsExactly("host",
                "debian-bookworm-jre17/overlay", "debian-bookworm-jre17/bind", "debian-bookworm-jre17/volume",
                "debian-bookworm-jre17/tmpfs");
        assertThat(results).extracting(r -> r.get("verdict")).containsExactly("REAL_FLUSH", "REAL_FLUSH",
                "REAL_FLUSH", "REAL_FLUSH", "NO_REAL_FLUSH");

        // The same fields as `flushcheck PATH --json` gives for a host path, plus "environment".
        CheckResult local = Flushcheck.check(hostDir, CheckOptions.defaults().withPlan(ProbePlan.verification()
                .withRounds(4)), ProbeListener.NONE);
        Map<String, Object> pathResult = MiniJson.object(MiniJson.array(MiniJson.object(MiniJson.parse(
                ResultJson.of(List.of(local)))).get("results")).get(0));
        for (Map<String, Object> r : results) {
            assertThat(r.keySet()).as((String) r.get("environment")).containsAll(pathResult.keySet()).contains("environment");
            assertThat((Map<String, Object>) r.get("storage")).containsKeys("fsType", "mountPoint", "countedDevices");
            List<Object> costs = (List<Object>) r.get("costs");
            assertThat(costs).as("%s costs", r.get("environment")).hasSize(3);
            assertThat(((Map<String, Object>) costs.get(0)).keySet())
                    .containsAll(MiniJson.object(MiniJson.array(pathResult.get("costs")).get(0)).keySet());
        }
        Map<String, Object> tmpfs = results.get(4);
        assertThat((Map<String, Object>) tmpfs.get("storage")).containsEntry("fsType", "tmpfs");
        assertThat(results.get(1).get("storage").toString()).contains("overlay");

        // The comparison comes with ratios, and calls out tmpfs against the host's real flush.
        Map<String, Object> comparison = (Map<String, Object>) doc.get("comparison");
        List<Map<String, Object>> rows = (List<Map<String, Object>>) comparison.get("rows");
        assertThat(rows).hasSize(15).allSatisfy(row -> assertThat(row).containsKeys("p50Ratio", "p99Ratio"));
        assertThat(rows).filteredOn(row -> "debian-bookworm-jre17/tmpfs".equals(row.get("environment"))
                && "append-fsync".equals(row.get("mode"))).singleElement()
                .satisfies(row -> assertThat(((Number) row.get("p50Ratio")).doubleValue()).isLessThan(0.1));
        assertThat((List<Map<String, Object>>) comparison.get("callouts"))
                .extracting(c -> c.get("environment")).contains("debian-bookworm-jre17/tmpfs");

        List<ResultData> typed = new ArrayList<>();
        for (Map<String, Object> r : results) {
            typed.add(ResultJson.read(r));
        }
        String text = GuestComparison.of(typed).text();
        System.err.print(text);
        assertThat(text).contains("p50 ratio", "p99 ratio", "debian-bookworm-jre17/tmpfs",
                "faster than the host's real flush");
    }
}

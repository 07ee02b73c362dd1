package io.flushcheck.cli.guests;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.guest.GuestComparison;
import io.flushcheck.report.Json;
import io.flushcheck.report.ResultData;
import java.util.LinkedHashMap;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.testing.JsonShape;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JSON contract of {@code flushcheck guests --json} without Docker: real results of this JVM on tmpfs,
 * one as the host and one as a guest, compared; every field name and the kind of its value.
 */
class GuestsJsonContractTests {

    static CheckResult probeShm() {
        return Flushcheck.check(Path.of("/dev/shm"), new CheckOptions(ProbePlan.verification().withRounds(4)
                .withModes(List.of(SyncMode.OVERWRITE_FDATASYNC)), CheckOptions.defaults().thresholds(), true),
                ProbeListener.NONE);
    }

    /** What the command prints for a host and one guest result and the environments that gave none. */
    static String document(CheckResult host, CheckResult guest, Map<String, String> failures) {
        List<ResultData> results = List.of(ResultData.of(host).withEnvironment("host"),
                ResultData.of(guest).withEnvironment("img/tmpfs"));
        return Json.write(GuestsCommand.jsonDocument(results, GuestComparison.of(results), null, new LinkedHashMap<>(failures)));
    }

    @Test
    void everyFieldOfTheGuestsDocument() {
        String json = document(probeShm(), probeShm(), Map.of("img/volume", "img/volume: exited with 137"));
        List<String> shape = JsonShape.of(json);
        assertThat(shape).contains(
                "results[].environment: string",
                "results[].path: string",
                "results[].verdict: string",
                "results[].costs[].p50Micros: number",
                "results[].costs[].write.p50Micros: number",
                "results[].costs[].sync.p99Micros: number",
                "results[].costs[].percentiles[].percentile: number",
                "results[].costs[].percentiles[].micros: number");
        assertThat(shape).filteredOn(l -> !l.startsWith("results[].")).containsExactlyInAnyOrder(
                "comparison.host: string",
                "comparison.farFasterFactor: number",
                "comparison.rows[].mode: string",
                "comparison.rows[].environment: string",
                "comparison.rows[].verdict: string",
                "comparison.rows[].p50Micros: number",
                "comparison.rows[].p99Micros: number",
                "comparison.rows[].flushesPerSync: null",
                "comparison.rows[].p50Ratio: number",
                "comparison.rows[].p99Ratio: number",
                "comparison.callouts: []",
                "failures[].environment: string",
                "failures[].reason: string");
    }
}

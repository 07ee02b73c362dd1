package io.flushcheck.cli.guests;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.report.Json;
import io.flushcheck.report.JsonInput;
import io.flushcheck.report.ResultData;
import io.flushcheck.verdict.Verdict;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON of {@code flushcheck guests} names the environments that gave no result; rendering only. */
class GuestsJsonTests {

    @Test
    void anEnvironmentWithoutAResultIsListedWithItsReason() {
        ResultData host = new ResultData("/x", Verdict.REAL_FLUSH, 1, List.of(), null, List.of(), "host", null);
        Map<String, String> failures = new LinkedHashMap<>();
        failures.put("debian-bookworm-jre17/volume", "debian-bookworm-jre17/volume: the in-guest JVM exited with 137");

        Map<String, Object> doc = JsonInput.parseObject(Json.write(GuestsCommand.jsonDocument(List.of(host), null, null, failures)));

        assertThat(doc.get("results")).isEqualTo(List.of(Map.of("path", "/x", "verdict", "REAL_FLUSH", "elapsedMillis", 1L,
                "findings", List.of(), "storage", Map.of(), "costs", List.of(), "environment", "host")));
        assertThat(doc).doesNotContainKeys("comparison", "comparisonError");
        assertThat(doc.get("failures")).isEqualTo(List.of(Map.of("environment", "debian-bookworm-jre17/volume",
                "reason", "debian-bookworm-jre17/volume: the in-guest JVM exited with 137")));
    }

    @Test
    void failuresIsAnEmptyListWhenEveryEnvironmentAnswered() {
        Map<String, Object> doc = JsonInput.parseObject(Json.write(GuestsCommand.jsonDocument(List.of(), null, null, Map.of())));
        assertThat(doc.get("failures")).isEqualTo(List.of());
    }

    @Test
    void aComparisonThatCannotBeMadeSaysWhyWithoutPosingAsAnEnvironment() {
        Map<String, Object> doc = JsonInput.parseObject(Json.write(GuestsCommand.jsonDocument(List.of(), null,
                "no host result to compare with", Map.of())));
        assertThat(doc.get("comparisonError")).isEqualTo("no host result to compare with");
        assertThat(doc.keySet()).containsExactly("results", "comparisonError", "failures");
        assertThat(doc.get("failures")).isEqualTo(List.of());
    }
}

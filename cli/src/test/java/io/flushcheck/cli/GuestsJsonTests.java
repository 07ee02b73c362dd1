package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.report.Json;
import io.flushcheck.report.JsonReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON of {@code flushcheck guests} names the environments that gave no result; rendering only. */
class GuestsJsonTests {

    @Test
    void anEnvironmentWithoutAResultIsListedWithItsReason() {
        Map<String, Object> host = new LinkedHashMap<>();
        host.put("environment", "host");
        host.put("verdict", "REAL_FLUSH");
        Map<String, String> failures = new LinkedHashMap<>();
        failures.put("debian-bookworm-jre17/volume", "debian-bookworm-jre17/volume: the in-guest JVM exited with 137");

        Map<String, Object> doc = JsonReader.parseObject(Json.write(GuestsCommand.jsonDocument(List.of(host), null, null, failures)));

        assertThat(doc.get("results")).isEqualTo(List.of(host));
        assertThat(doc).doesNotContainKeys("comparison", "comparisonError");
        assertThat(doc.get("failures")).isEqualTo(List.of(Map.of("environment", "debian-bookworm-jre17/volume",
                "reason", "debian-bookworm-jre17/volume: the in-guest JVM exited with 137")));
    }

    @Test
    void failuresIsAnEmptyListWhenEveryEnvironmentAnswered() {
        Map<String, Object> doc = JsonReader.parseObject(Json.write(GuestsCommand.jsonDocument(List.of(), null, null, Map.of())));
        assertThat(doc.get("failures")).isEqualTo(List.of());
    }

    @Test
    void aComparisonThatCannotBeMadeSaysWhyWithoutPosingAsAnEnvironment() {
        Map<String, Object> doc = JsonReader.parseObject(Json.write(GuestsCommand.jsonDocument(List.of(), null,
                "no host result to compare with", Map.of())));
        assertThat(doc.get("comparisonError")).isEqualTo("no host result to compare with");
        assertThat(doc.get("failures")).isEqualTo(List.of());
    }
}

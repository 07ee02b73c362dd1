package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.JsonShape;
import io.flushcheck.testing.MiniJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The document a guest writes and the host reads back ({@link GuestMain}): every field name and the kind of
 * its value, from a real run in this JVM on tmpfs with one test of each outcome.
 */
class GuestProtocolContractTests {

    @AfterEach
    void clearProperties() {
        System.clearProperty(GuestMain.ENVIRONMENT_PROPERTY);
        System.clearProperty(GuestMain.DATA_DIR_PROPERTY);
    }

    static Path runGuest(Path dir) {
        Path out = dir.resolve("out.json");
        int code = GuestMain.run(new String[] {"--environment", "img/tmpfs", "--data", "/dev/shm", "--out", out.toString(),
            "--probe", "--always-probe", "--rounds", "4", "--modes", "overwrite-fdatasync",
            "--tests", ProtocolSample.class.getName()});
        assertThat(code).isZero();
        return out;
    }

    @Test
    void everyFieldOfTheGuestDocument(@TempDir Path dir) throws Exception {
        String json = Files.readString(runGuest(dir));
        List<String> shape = JsonShape.of(json);
        assertThat(shape).contains(
                "environment: string",
                "dataDir: string",
                "java: string",
                "results[].environment: string",
                "results[].path: string",
                "results[].verdict: string",
                "results[].elapsedMillis: number",
                "results[].storage.fsType: string",
                "results[].costs[].p50Micros: number",
                "results[].costs[].write.p50Micros: number",
                "results[].costs[].write.p99Micros: number",
                "results[].costs[].sync.p50Micros: number",
                "results[].costs[].sync.p99Micros: number",
                "results[].costs[].percentiles[].percentile: number",
                "results[].costs[].percentiles[].micros: number",
                "tests[].id: string",
                "tests[].class: string",
                "tests[].displayName: string",
                "tests[].status: string",
                "tests[].message: string",
                "tests[].message: null",
                "tests[].durationMillis: number",
                "summary.tests: number",
                "summary.successful: number",
                "summary.failed: number",
                "summary.aborted: number",
                "summary.skipped: number",
                "errors: []");
        assertThat(shape).filteredOn(l -> !l.startsWith("results[].")).containsExactlyInAnyOrder(
                "environment: string",
                "dataDir: string",
                "java: string",
                "tests[].id: string",
                "tests[].class: string",
                "tests[].displayName: string",
                "tests[].status: string",
                "tests[].message: string",
                "tests[].message: null",
                "tests[].durationMillis: number",
                "summary.tests: number",
                "summary.successful: number",
                "summary.failed: number",
                "summary.aborted: number",
                "summary.skipped: number",
                "errors: []");
        Map<String, Object> doc = MiniJson.object(MiniJson.parse(json));
        assertThat(doc.keySet()).containsExactly("environment", "dataDir", "java", "results", "tests", "summary", "errors");
        assertThat(doc.get("summary")).isEqualTo(Map.of("tests", 4L, "successful", 1L, "failed", 1L, "aborted", 1L,
                "skipped", 1L));
        assertThat(MiniJson.object(doc.get("summary")).keySet()).containsExactly("tests", "successful", "failed",
                "aborted", "skipped");
        assertThat(MiniJson.object(MiniJson.array(doc.get("tests")).get(0)).keySet()).containsExactly("id", "class",
                "displayName", "status", "message", "durationMillis");
        assertThat(MiniJson.object(MiniJson.array(doc.get("results")).get(0)).keySet()).containsExactly("path", "verdict",
                "elapsedMillis", "findings", "storage", "costs", "environment");
        // What the host reads back: the write and the sync apart and the curve, as the guest measured them.
        io.flushcheck.report.ResultData.Cost cost = GuestProtocol.parse(json).results().get(0).costs().get(0);
        assertThat(cost.hasSplitLatencies()).isTrue();
        assertThat(cost.sync().p99Micros()).isPositive().isLessThanOrEqualTo(cost.maxMicros());
        assertThat(cost.percentiles()).isNotEmpty();
        assertThat(cost.percentiles().get(cost.percentiles().size() - 1).micros()).isEqualTo(cost.maxMicros());
    }
}

package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.Json;
import io.flushcheck.report.JsonInput;
import io.flushcheck.report.ResultData;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparison of typed results, without Docker. */
class GuestComparisonTests {

    /** A result of {@code env} with, per mode: its id, p50, p99 and flushes per sync (null: not counted). */
    static ResultData result(String env, String verdict, Object... modeP50P99Fps) {
        List<ResultData.Cost> costs = new ArrayList<>();
        for (int i = 0; i < modeP50P99Fps.length; i += 4) {
            Double fps = (Double) modeP50P99Fps[i + 3];
            costs.add(new ResultData.Cost(SyncMode.parse((String) modeP50P99Fps[i]), 4096, 100, 1,
                    (Double) modeP50P99Fps[i + 1], 1, (Double) modeP50P99Fps[i + 2], 1, 1, null, null, -1, -1,
                    fps == null ? Double.NaN : fps, -1, 0, List.of(), List.of(), List.of(), List.of(), ResultData.LATENCY_NOTE));
        }
        return new ResultData("/x/" + env, Verdict.valueOf(verdict), 1, List.of(), null, costs, env, null);
    }

    @Test
    void ratiosPerModeAndACalloutForAFastGuestWithoutFlushes() {
        GuestComparison c = GuestComparison.of(List.of(
                result("host", "REAL_FLUSH", "append-fsync", 2000.0, 4000.0, 1.0),
                result("img/overlay", "REAL_FLUSH", "append-fsync", 1000.0, 8000.0, 1.0),
                result("img/bind", "REAL_FLUSH", "append-fsync", 100.0, 8000.0, 1.0),
                result("img/tmpfs", "NO_REAL_FLUSH", "append-fsync", 4.0, 10.0, null)));
        assertThat(c.rows()).extracting(GuestComparison.Row::environment)
                .containsExactly("host", "img/overlay", "img/bind", "img/tmpfs");
        assertThat(c.rows().get(1).p50Ratio()).isEqualTo(0.5);
        assertThat(c.rows().get(1).p99Ratio()).isEqualTo(2.0);
        // bind is 20x faster but its flushes were counted: timing noise, not a lie. tmpfs is called out.
        assertThat(c.callouts()).singleElement().satisfies(co -> {
            assertThat(co.environment()).isEqualTo("img/tmpfs");
            assertThat(co.factor()).isEqualTo(500.0);
            assertThat(co.message()).isEqualTo("img/tmpfs: append-fsync takes 4.00 µs in the median, 500x faster "
                    + "than the host's real flush (2000 µs, 1.00 flushes per sync) on the same disk: its syncs do not "
                    + "reach the disk (unknown flushes per sync, verdict NO_REAL_FLUSH)");
        });
        String text = c.text();
        assertThat(text).contains("p50 ratio", "0.50x", "2.00x", "0.00200x", "! img/tmpfs: append-fsync");
        String json = Json.write(c.document());
        Map<String, Object> back = JsonInput.parseObject(json);
        assertThat(back.keySet()).containsExactly("host", "farFasterFactor", "rows", "callouts");
        // The JSON contract of a callout and a row: field names, and the mode as its id.
        Map<String, Object> callout = JsonInput.object(((List<?>) back.get("callouts")).get(0), "a callout");
        assertThat(callout.keySet()).containsExactly("environment", "mode", "guestP50Micros", "hostP50Micros", "factor",
                "message");
        assertThat(callout).containsEntry("mode", "append-fsync").containsEntry("factor", 500L);
        assertThat(JsonInput.object(((List<?>) back.get("rows")).get(0), "a row").keySet()).containsExactly("mode",
                "environment", "verdict", "p50Micros", "p99Micros", "flushesPerSync", "p50Ratio", "p99Ratio");
        assertThat(c.rows().get(3).verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
    }

    @Test
    void noCalloutWhenTheHostItselfDoesNotFlush() {
        GuestComparison c = GuestComparison.of(List.of(
                result("host", "NO_REAL_FLUSH", "append-fsync", 3.0, 4.0, 0.0),
                result("img/tmpfs", "NO_REAL_FLUSH", "append-fsync", 0.1, 1.0, null)));
        assertThat(c.callouts()).isEmpty();
        assertThat(c.text()).contains("no guest syncs far faster");
    }

    @Test
    void needsAHostResult() {
        assertThatThrownBy(() -> GuestComparison.of(List.of(result("img/bind", "REAL_FLUSH"))))
                .hasMessageContaining("no host result");
    }
}

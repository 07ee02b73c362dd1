package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

class MeasureSyncCostExtensionTests {

    static Path disk;
    static Path reports;

    @BeforeAll
    static void directories() throws IOException {
        disk = Files.createDirectories(Path.of("target", "flushcheck-it", "measure").toAbsolutePath());
        reports = Files.createDirectories(Path.of("target", "flushcheck-it", "measure-reports").toAbsolutePath());
    }

    static EngineExecutionResults run(Class<?> fixture, String target) {
        return run(fixture, target, Map.of());
    }

    static EngineExecutionResults run(Class<?> fixture, String target, Map<String, String> keys) {
        Map<String, String> config = new HashMap<>(keys);
        config.put(FlushcheckConfig.TARGET_KEY, target);
        config.put(FlushcheckConfig.REPORT_DIR_KEY, reports.toString());
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).configurationParameters(config).execute();
    }

    static Map<String, String> entries(EngineExecutionResults r) {
        Map<String, String> all = new HashMap<>();
        r.allEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow())
                .forEach(e -> all.putAll(e.getKeyValuePairs()));
        return all;
    }

    @Test
    void measuresReportsAndInjects() throws IOException {
        MeasuredTestCases.seen = null;
        EngineExecutionResults r = run(MeasuredTestCases.class, disk.toString());
        r.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        SyncCostMeasurement m = MeasuredTestCases.seen;
        assertEquals(Verdict.REAL_FLUSH, m.verdict());
        assertEquals(List.of("overwrite-fdatasync", "no-sync"), m.costs().stream().map(c -> c.mode().id()).toList());
        SyncCost c = m.cost("overwrite-fdatasync");
        assertEquals(50, c.rounds());
        assertTrue(c.flushesPerSync() >= 0.5, "flushes per sync " + c.flushesPerSync());
        Map<String, String> e = entries(r);
        assertThat(e).containsKeys("flushcheck.overwrite-fdatasync.p50Micros", "flushcheck.overwrite-fdatasync.p99Micros",
                "flushcheck.overwrite-fdatasync.maxMicros", "flushcheck.overwrite-fdatasync.flushesPerSync",
                "flushcheck.no-sync.p50Micros");
        assertEquals(io.flushcheck.text.Numbers.micros(c.p99Micros()), e.get("flushcheck.overwrite-fdatasync.p99Micros"));
        assertEquals(reports.resolve(MeasuredTestCases.class.getName() + ".measured.json"), m.jsonReport());
        assertThat(Files.readString(m.jsonReport())).contains("\"mode\": \"overwrite-fdatasync\"", "\"p99Micros\"");
        assertThat(Files.readString(m.textReport())).contains("overwrite-fdatasync: 50 rounds of 4 KiB");
    }

    @Test
    void measuresOnTmpfsToo() {
        MeasuredTestCases.seen = null;
        run(MeasuredTestCases.class, "/dev/shm").testEvents().assertStatistics(s -> s.succeeded(1));
        assertEquals(Verdict.NO_REAL_FLUSH, MeasuredTestCases.seen.verdict());
        assertEquals(2, MeasuredTestCases.seen.costs().size(), "tmpfs is measured, not only judged");
        assertTrue(Double.isNaN(MeasuredTestCases.seen.cost(SyncMode.OVERWRITE_FDATASYNC).flushesPerSync()),
                "tmpfs has no device counters: flushes per sync are not counted (NaN), never a made-up 0");
    }

    @Test
    void gateFailsWithTheDistribution() {
        run(GateTestCases.class, disk.toString()).testEvents()
                .assertThatEvents().haveExactly(1, event(test("gated"), finishedWithFailure(instanceOf(AssertionError.class),
                        message(m -> m.startsWith("@MeasureSyncCost(maxMicros = 1, gatePercentile = 50): overwrite-fdatasync p50 is ")
                                && m.contains("above the limit (the p50 of 20 rounds: 10 rounds lie above it); the distribution:")
                                && m.contains("overwrite-fdatasync: 20 rounds of 4 KiB")
                                && m.contains(" us  ")
                                && gatedFigureIsTheDistributionsMedian(m)))));
    }

    /** "p50 is 412 us in ..." names the same figure as the distribution's "p50 412 us". */
    private static boolean gatedFigureIsTheDistributionsMedian(String message) {
        java.util.regex.Matcher gated = java.util.regex.Pattern.compile(" p50 is ([0-9.]+) us ").matcher(message);
        java.util.regex.Matcher shown = java.util.regex.Pattern.compile(", p50 ([0-9.]+) us,").matcher(message);
        return gated.find() && shown.find() && gated.group(1).equals(shown.group(1));
    }

    @Test
    void classLevelMeasuresOnceAndPublishesForEachTest() {
        int before = CheckCache.CHECKS_RUN.get();
        EngineExecutionResults r = run(ClassLevelTestCases.class, disk.toString());
        r.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
        assertEquals(1, CheckCache.CHECKS_RUN.get() - before);
        long perTest = r.testEvents().reportingEntryPublished().stream()
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow())
                .filter(e -> e.getKeyValuePairs().containsKey("flushcheck.append-fsync.p50Micros")).count();
        assertEquals(2, perTest, "each test's report carries the class-level figures");
    }

    @Test
    void aGateNeedsTenRoundsAboveItsPercentileBeforeAnythingIsMeasured() {
        int before = CheckCache.CHECKS_RUN.get();
        run(TooFewRoundsTestCases.class, disk.toString()).testEvents()
                .assertThatEvents().haveExactly(1, event(test("p99Of200"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("@MeasureSyncCost(maxP99Micros = 10000): the p99 of 200 rounds rests on its 3 slowest, so one"
                                + " stall of a busy machine decides it; measure at least 1000 rounds (rounds = 1000), or gate a"
                                + " lower percentile (gatePercentile = 90 needs 100)"))))
                .haveExactly(1, event(test("p90Of99"), finishedWithFailure(instanceOf(ExtensionConfigurationException.class),
                        message(m -> m.startsWith("@MeasureSyncCost(maxMicros = 10000, gatePercentile = 90): the p90 of 99 rounds"
                                + " rests on its 10 slowest")))));
        assertEquals(0, CheckCache.CHECKS_RUN.get() - before, "refused before measuring");
    }

    @Test
    void aGateThatIsNotANumberIsAConfigurationError() {
        run(NaNGateTestCases.class, disk.toString()).testEvents()
                .assertThatEvents().haveExactly(1, event(test("gated"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("@MeasureSyncCost(maxP99Micros = NaN): use -1 (no gate) or a number of microseconds above 0"))));
    }

    @Test
    void unknownModeIsAConfigurationError() {
        run(BadModeTestCases.class, disk.toString(), Map.of(FlushcheckConfig.MEASURE_MODES_KEY, "fsnyc")).testEvents()
                .assertThatEvents().haveExactly(1, event(test("badMode"), finishedWithFailure(
                        instanceOf(ExtensionConfigurationException.class),
                        message("flushcheck.measure.modes: unknown sync mode 'fsnyc'; known modes: append-fsync, "
                                + "append-fdatasync, overwrite-fdatasync, dsync, flush-only, no-sync, java-force, "
                                + "full-fsync, barrier-fsync"))));
    }

    static class MeasuredTestCases {
        static SyncCostMeasurement seen;

        @Test
        @MeasureSyncCost(modes = {SyncMode.OVERWRITE_FDATASYNC, SyncMode.NO_SYNC}, rounds = 50)
        void measured(SyncCostMeasurement m) {
            seen = m;
        }
    }

    static class GateTestCases {
        @Test
        @MeasureSyncCost(modes = SyncMode.OVERWRITE_FDATASYNC, rounds = 20, maxMicros = 1, gatePercentile = 50)
        void gated() {
        }
    }

    static class TooFewRoundsTestCases {
        @Test
        @MeasureSyncCost(modes = SyncMode.OVERWRITE_FDATASYNC, rounds = 200, maxP99Micros = 10_000)
        void p99Of200() {
        }

        @Test
        @MeasureSyncCost(modes = SyncMode.OVERWRITE_FDATASYNC, rounds = 99, maxMicros = 10_000, gatePercentile = 90)
        void p90Of99() {
        }
    }

    @MeasureSyncCost(modes = SyncMode.APPEND_FSYNC, rounds = 30)
    static class ClassLevelTestCases {
        @Test
        void first(SyncCostMeasurement m) {
            assertEquals(30, m.cost(SyncMode.APPEND_FSYNC).rounds());
        }

        @Test
        void second(SyncCostMeasurement m) {
            assertEquals(1, m.costs().size());
        }
    }

    static class NaNGateTestCases {
        @Test
        @MeasureSyncCost(modes = SyncMode.OVERWRITE_FDATASYNC, rounds = 10, maxP99Micros = Double.NaN)
        void gated() {
        }
    }

    static class BadModeTestCases {
        @Test
        @MeasureSyncCost
        void badMode() {
        }
    }
}

package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.sqlite.MeasureSqliteCommits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** {@code @MeasureSqliteCommits} through the Jupiter engine, on static nested fixtures. */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class MeasureSqliteCommitsExtensionTests {

    static Events run(Class<?> fixture) {
        return run(fixture, Map.of(MeasureSqliteCommits.DIRECTORY_KEY, "target"));
    }

    /** Runs a fixture with these keys (and a 1-second cell limit unless they set one). */
    static Events run(Class<?> fixture, Map<String, String> keys) {
        Map<String, String> all = new java.util.HashMap<>(Map.of(MeasureSqliteCommits.MAX_CELL_SECONDS_KEY, "1",
                OnlyThroughTheTestKit.KEY, "true"));
        all.putAll(keys);
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).configurationParameters(all)
                .execute().testEvents();
    }

    static void failsWith(Class<?> fixture, Map<String, String> keys, String message) {
        run(fixture, keys).assertThatEvents().haveExactly(1, event(test("bad"), finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class), message(message))));
    }

    /**
     * The fixtures below are for {@link #run}; a pattern such as {@code -Dtest='io.flushcheck.sqlite.**'}
     * also selects nested classes, and run directly they would fail on purpose or share their statics.
     */
    static final class OnlyThroughTheTestKit implements ExecutionCondition {
        static final String KEY = "io.flushcheck.sqlite.test-fixture";

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(KEY).isPresent() ? ConditionEvaluationResult.enabled("in the test kit")
                    : ConditionEvaluationResult.disabled("a fixture of MeasureSqliteCommitsExtensionTests: runs through it only");
        }
    }

    @Test
    void measuresInjectsAndReportsTheMatrix() {
        Events events = run(MeasuredTestCases.class);
        events.assertStatistics(s -> s.started(2).succeeded(2).failed(0));
        List<Map<String, String>> entries = events.reportingEntryPublished().stream()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs()).toList();
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0)).containsKey("flushcheck.sqlite.WAL/FULL/fullfsync=0/batch=1")
                .containsKey("flushcheck.sqlite.WAL/NORMAL/fullfsync=0/batch=10")
                .hasEntrySatisfying("flushcheck.sqlite.directory", v -> assertThat(v).endsWith("target (REAL_FLUSH)"))
                .hasEntrySatisfying("flushcheck.sqlite.WAL/FULL/fullfsync=0/batch=1",
                        v -> assertThat(v).matches("\\d+ rows/s, \\d+ commits/s, \\d+\\.\\d\\d flushes/commit, .*"));
    }

    @Test
    void aBadAttributeFailsWithTheAnnotationTheValueAndTheFix() {
        run(BadBatchTestCases.class).assertThatEvents().haveExactly(1, event(test("bad"), finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message("@MeasureSqliteCommits(batches = [0]): batch 0 is out of range: use 1 to 1000000 rows per"
                        + " transaction"))));
    }

    @Test
    void theFullfsyncKeyTakesTheSharedBooleanGrammar() {
        run(FullfsyncKeyTestCases.class, Map.of(MeasureSqliteCommits.DIRECTORY_KEY, "target",
                MeasureSqliteCommits.FULLFSYNC_KEY, "off, ON")).assertStatistics(s -> s.started(1).succeeded(1));
    }

    @Test
    void anOutOfRangeAttributeNamesTheAttribute() {
        failsWith(BadRowsTestCases.class, Map.of(), "@MeasureSqliteCommits(rows = 0): 0 is out of range: use 1 to"
                + " 10000000, or leave rows out to use flushcheck.sqlite.rows");
    }

    @Test
    void aBadKeyNamesTheKeyTheValueAndWhatIsAllowed() {
        failsWith(BadJournalModeTestCases.class, Map.of(MeasureSqliteCommits.JOURNAL_MODES_KEY, "WALL"),
                "flushcheck.sqlite.journal-modes = 'WALL': unknown journal mode 'WALL': use one of"
                        + " DELETE, TRUNCATE, PERSIST, MEMORY, WAL, OFF");
        failsWith(BadJournalModeTestCases.class, Map.of(MeasureSqliteCommits.SYNCHRONOUS_KEY, "FUL"),
                "flushcheck.sqlite.synchronous = 'FUL': unknown synchronous setting 'FUL': use one of"
                        + " OFF, NORMAL, FULL, EXTRA");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.ROWS_KEY, "0"),
                "flushcheck.sqlite.rows = '0' is out of range: use 1 to 10000000");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.ROWS_KEY, "many"),
                "flushcheck.sqlite.rows = 'many' is not a whole number: use 1 to 10000000");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.BATCHES_KEY, "1, 0"),
                "flushcheck.sqlite.batches = '1, 0': batch 0 is out of range: use 1 to 1000000 rows per transaction,"
                        + " comma-separated");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.MAX_CELL_SECONDS_KEY, "0"),
                "flushcheck.sqlite.max-cell-seconds = '0' is out of range: use seconds above 0, e.g. 2 or 0.5");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.MAX_SECONDS_KEY, "soon"),
                "flushcheck.sqlite.max-seconds = 'soon' is not a number: use seconds above 0, e.g. 2 or 0.5");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.FULLFSYNC_KEY, "2"),
                "flushcheck.sqlite.fullfsync = '2': '2' is not a boolean: use true, false, yes, no, on, off, 1 or 0");
        failsWith(KeyedTestCases.class, Map.of(MeasureSqliteCommits.SYNCHRONOUS_KEY, "FULLEST"),
                "flushcheck.sqlite.synchronous = 'FULLEST': unknown synchronous setting 'FULLEST': use one of OFF,"
                        + " NORMAL, FULL, EXTRA");
    }

    @Test
    void theDirectoryIsTheSqliteKeyThenTheTargetKeyAndAMissingOneIsNamed() throws Exception {
        String missing = "target/sqlite-tests/missing-" + java.util.UUID.randomUUID();
        failsWith(KeyedTestCases.class, Map.of(io.flushcheck.jupiter.FlushcheckConfig.TARGET_KEY, missing),
                "@MeasureSqliteCommits: flushcheck.target = '" + missing + "': " + missing + " does not exist");
        failsWith(KeyedTestCases.class, Map.of(io.flushcheck.jupiter.FlushcheckConfig.TARGET_KEY, "target",
                MeasureSqliteCommits.DIRECTORY_KEY, missing),
                "@MeasureSqliteCommits: flushcheck.sqlite.directory = '" + missing + "': " + missing + " does not exist");

        java.nio.file.Path target = SqliteTestFiles.diskDir("target-key");
        Events events = run(TinyTestCases.class, Map.of(io.flushcheck.jupiter.FlushcheckConfig.TARGET_KEY, target.toString()));
        events.assertStatistics(st -> st.succeeded(1).failed(0));
        assertThat(events.reportingEntryPublished().stream()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("flushcheck.sqlite.directory")))
                .singleElement().asString().startsWith(target + " (");
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    @ExtendWith(OnlyThroughTheTestKit.class)
    @MeasureSqliteCommits(journalModes = JournalMode.WAL, synchronous = {Synchronous.NORMAL, Synchronous.FULL}, batches = {1, 10}, rows = 30)
    static class MeasuredTestCases {

        static CommitMatrix first;

        @Test
        void injected(CommitMatrix m) {
            assertThat(m.cells()).hasSize(4);
            assertThat(m.require(JournalMode.WAL, Synchronous.FULL, false, 1).flushesPerCommit()).isGreaterThan(0.5);
            first = m;
        }

        @Test
        void measuredOncePerRun(CommitMatrix m) {
            if (first != null) {
                assertThat(m).isSameAs(first);
            }
        }
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    static class BadJournalModeTestCases {
        @Test
        @MeasureSqliteCommits(batches = 1)
        void bad() {
        }
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    static class BadBatchTestCases {
        @Test
        @MeasureSqliteCommits(batches = 0)
        void bad() {
        }
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    static class BadRowsTestCases {
        @Test
        @MeasureSqliteCommits(rows = 0)
        void bad() {
        }
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    static class KeyedTestCases {
        @Test
        @MeasureSqliteCommits(journalModes = JournalMode.WAL)
        void bad() {
        }
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    @MeasureSqliteCommits(journalModes = JournalMode.WAL, synchronous = Synchronous.OFF, batches = 1, rows = 10)
    static class TinyTestCases {
        @Test
        void measured(CommitMatrix m) {
            assertThat(m.cells()).hasSize(1);
        }
    }

    @ExtendWith(OnlyThroughTheTestKit.class)
    @MeasureSqliteCommits(journalModes = JournalMode.WAL, synchronous = Synchronous.OFF, batches = 1, rows = 10)
    static class FullfsyncKeyTestCases {
        @Test
        void measured(CommitMatrix m) {
            assertThat(m.cells()).extracting(CommitCell::fullfsync).containsExactly(false, true);
        }
    }
}

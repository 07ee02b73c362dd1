package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.flushcheck.jupiter.MeasureSqliteCommits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** {@code @MeasureSqliteCommits} through the Jupiter engine, on static nested fixtures. */
class MeasureSqliteCommitsExtensionTests {

    static Events run(Class<?> fixture) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture))
                .configurationParameter(MeasureSqliteCommits.DIRECTORY_KEY, "target")
                .configurationParameter(MeasureSqliteCommits.MAX_CELL_SECONDS_KEY, "1")
                .execute().testEvents();
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
        run(BadJournalModeTestCases.class).assertThatEvents().haveExactly(1, event(test("bad"), finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message("@MeasureSqliteCommits(journalModes = \"WALL\"): unknown journal mode 'WALL': use one of"
                        + " DELETE, TRUNCATE, PERSIST, MEMORY, WAL, OFF"))));
        run(BadBatchTestCases.class).assertThatEvents().haveExactly(1, event(test("bad"), finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message("@MeasureSqliteCommits(batches = [0]): batch 0 is out of range: use 1 to 1000000 rows per"
                        + " transaction"))));
    }

    @MeasureSqliteCommits(journalModes = "WAL", synchronous = {"NORMAL", "FULL"}, batches = {1, 10}, rows = 30)
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

    static class BadJournalModeTestCases {
        @Test
        @MeasureSqliteCommits(journalModes = "WALL")
        void bad() {
        }
    }

    static class BadBatchTestCases {
        @Test
        @MeasureSqliteCommits(batches = 0)
        void bad() {
        }
    }
}

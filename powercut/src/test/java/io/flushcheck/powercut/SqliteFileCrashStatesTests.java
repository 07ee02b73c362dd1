package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real SQLite (sqlite-jdbc) over every crash state of one recorded run on the file model, without root: one
 * row a commit, each acknowledged once its commit returned. WAL with synchronous FULL and DELETE with EXTRA
 * keep every row in every state, under both rules. DELETE with FULL does not sync the directory after it
 * deletes the rollback journal that commits a transaction, so a state that lost the deletion finds the
 * journal hot and rolls the last commit back; the failure names the journal's removal.
 */
class SqliteFileCrashStatesTests {

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        TestDisks.requireFileModel();
    }

    @ParameterizedTest(name = "{0} {1} {2}: {3}")
    @CsvSource({"WAL, FULL, JOURNALED, kept", "WAL, FULL, POSIX, kept", "DELETE, EXTRA, JOURNALED, kept",
            "DELETE, EXTRA, POSIX, kept", "DELETE, FULL, JOURNALED, lost"})
    void everyAcknowledgedRowIsInEveryStateUnlessTheJournalsDeletionIsNotSynced(String journalMode, String synchronous,
                                                                                 FileRules rules, String expected)
            throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).rules(rules)
                .create(tmp.resolve("disk"))) {
            CrashStates states = SqliteCrashStatesTests.record(disk, journalMode, synchronous);
            CrashStateReport report = states.check(5000, (survivor, mustSurvive) ->
                    assertThat(SqliteCrashStatesTests.rows(survivor.resolve("app.db"))).as("rows after the state")
                            .containsAll(mustSurvive));
            System.out.println("SQLite " + journalMode + " " + synchronous + " " + rules + ": " + states.writes()
                    + " operations in " + states.epochs() + " epochs; " + report + "; "
                    + String.format("%.1f", report.checked() / report.seconds()) + " states/s; load "
                    + Files.readString(Path.of("/proc/loadavg")).trim()
                    + (report.failures().isEmpty() ? "" : "; the first: " + report.failures().get(0).explanation()));
            assertThat(report.leftOut()).isZero();
            assertThat(report.checked()).isGreaterThan(SqliteCrashStatesTests.ROWS);
            if (expected.equals("kept")) {
                report.assertPassed();
            } else {
                assertThatThrownBy(report::assertPassed).isInstanceOf(AssertionError.class)
                        .hasMessageContaining("unlink app.db-journal");
            }
        }
    }
}

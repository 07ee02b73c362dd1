package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real SQLite (sqlite-jdbc) over every crash state of one recorded run on ext4: one row a commit, each
 * acknowledged once its commit returned. WAL with synchronous FULL and DELETE with EXTRA keep every row in
 * every state. DELETE with FULL does not sync the directory after it deletes the rollback journal that commits
 * a transaction (SQLite's documentation of {@code PRAGMA synchronous}: EXTRA adds that sync "if the commit is
 * followed closely by a power loss"), so a state where the deletion is lost finds the journal hot and rolls
 * the last commit back; the failure names the journal and the directory sync. The states are checked on as many
 * workers at once as {@link CrashStates#defaultWorkers()} says.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SqliteCrashStatesTests {

    static final int ROWS = 12;

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource({"WAL, FULL, kept", "DELETE, EXTRA, kept", "DELETE, FULL, lost"})
    void everyAcknowledgedRowIsInEveryStateUnlessTheJournalsDeletionIsNotSynced(String journalMode, String synchronous,
                                                                                 String expected) throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096")
                .create(tmp.resolve("disk"))) {
            CrashStates states = record(disk, journalMode, synchronous);
            // Each verification opens its own connection to its own survivor: safe to run on several workers at once.
            CrashStateReport report = states.inParallel().check(2000, (survivor, mustSurvive) ->
                    assertThat(rows(survivor.resolve("app.db"))).as("rows after the state").containsAll(mustSurvive));
            System.out.println("SQLite " + journalMode + " " + synchronous + ": " + states.writes() + " writes in "
                    + states.epochs() + " epochs; " + report
                    + (report.failures().isEmpty() ? "" : "; the first: " + report.failures().get(0).explanation()));
            assertThat(report.leftOut()).isZero();
            assertThat(report.checked()).isGreaterThan(ROWS);
            if (expected.equals("kept")) {
                report.assertPassed();
            } else {
                assertThatThrownBy(report::assertPassed).isInstanceOf(AssertionError.class)
                        .hasMessageContaining("app.db-journal")
                        .hasMessageContaining("no sync of the top directory completed after it");
            }
        }
    }

    /** {@value #ROWS} one-row commits into app.db on {@code disk}, recorded, each acknowledged once it returned. */
    static CrashStates record(SimulatedDisk disk, String journalMode, String synchronous) throws Exception {
        return disk.recordCrashStates(acknowledged -> {
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + disk.path().resolve("app.db"));
                 Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=" + journalMode);
                s.execute("PRAGMA synchronous=" + synchronous);
                s.execute("CREATE TABLE t (v TEXT)");
                for (int i = 1; i <= ROWS; i++) {
                    s.executeUpdate("INSERT INTO t (v) VALUES ('row " + i + "')");   // returns once committed
                    acknowledged.add("row " + i);
                }
            }
        });
    }

    /** The rows a survivor's database holds; none when the table never became durable. */
    static List<String> rows(Path db) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT v FROM t")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        } catch (SQLException e) {
            if (!String.valueOf(e.getMessage()).contains("no such table")) {
                throw e;
            }
        }
        return rows;
    }
}

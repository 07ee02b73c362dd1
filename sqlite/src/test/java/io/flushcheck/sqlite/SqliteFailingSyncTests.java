package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.FaultPlan;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sqlite.SQLiteException;

/**
 * What SQLite (sqlite-jdbc, one commit per row) does when the fsync of a commit fails, measured on ext4 on the block
 * model and on the file model: the commit fails with SQLITE_IOERR_FSYNC and is rolled back, SQLite acknowledges
 * nothing whose sync failed, and every row it acknowledged survives a cut. On ext4 every later commit fails with
 * SQLITE_IOERR_WRITE (ext4 turned read-only); on the file model, whose later syncs work, SQLite goes on committing.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SqliteFailingSyncTests {

    private static final int ROWS = 10;
    private static final int FAULT_AT = 4;

    @TempDir
    Path tmp;

    /** The outcome of one commit: acknowledged, or the error SQLite gave. */
    private record Commit(int row, String error) {
    }

    private static List<Commit> commitRows(SimulatedDisk disk, Path db, AcknowledgedRecords acks, boolean persistent,
                                           String journalMode, String synchronous) throws SQLException {
        List<Commit> commits = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            try (Statement st = c.createStatement()) {
                st.execute("PRAGMA journal_mode=" + journalMode);
                st.execute("PRAGMA synchronous=" + synchronous);
                st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            }
            for (int i = 1; i <= ROWS; i++) {
                if (i == FAULT_AT) {
                    FaultPlan plan = FaultPlan.flushesAfter(disk.flushes());
                    disk.failFlushes(persistent ? plan : plan.once());
                }
                try (Statement st = c.createStatement()) {
                    st.execute("INSERT INTO t VALUES (" + i + ")"); // autocommit: returns once committed
                    acks.add(String.valueOf(i));
                    commits.add(new Commit(i, null));
                } catch (SQLiteException e) {
                    commits.add(new Commit(i, e.getResultCode().name()));
                }
            }
        }
        return commits;
    }

    private static List<String> rows(Path db) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT id FROM t ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }

    // DELETE with FULL loses the last commit at a cut without any failure (its journal's deletion is not synced:
    // see the README's SQLite cuts), so the rollback journal runs with EXTRA here, WAL with FULL.
    @ParameterizedTest(name = "{0}, {1}, {2}, the failure {3}")
    @CsvSource({"BLOCK, DELETE, EXTRA, persistent", "BLOCK, DELETE, EXTRA, once", "BLOCK, WAL, FULL, persistent",
        "BLOCK, WAL, FULL, once", "FILE, DELETE, EXTRA, once", "FILE, WAL, FULL, once"})
    void sqliteFailsTheCommitWhoseSyncFailedAndAcknowledgesNothingThatIsLost(String model, String journalMode,
                                                                           String synchronous, String failure)
            throws IOException, SQLException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        boolean persistent = failure.equals("persistent");
        try (SimulatedDisk disk = disk(model)) {
            AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
            List<Commit> commits = commitRows(disk, disk.path().resolve("db"), acks, persistent, journalMode, synchronous);
            List<String> survived = rows(disk.cutPower().resolve("db"));
            System.out.printf("SQLite %s, synchronous=%s, %s, flush failing %s from row %d's commit: commits %s;"
                    + " acknowledged %s; survived %s%n", journalMode, synchronous, model, failure, FAULT_AT, commits,
                    acks.all(), survived);
            Commit failed = commits.get(FAULT_AT - 1);
            assertThat(failed.error()).as("the commit whose sync failed").isEqualTo("SQLITE_IOERR_FSYNC");
            assertThat(acks.all()).as("acknowledged before the fault").contains("1", "2", "3")
                    .doesNotContain(String.valueOf(FAULT_AT));
            acks.assertDurable(survived);
            assertThat(survived).as("the failed commit was rolled back").doesNotContain(String.valueOf(FAULT_AT));
            List<String> later = commits.subList(FAULT_AT, ROWS).stream().map(c -> String.valueOf(c.error())).toList();
            if (model.equals("BLOCK")) {
                // ext4 aborted its journal at the failed commit flush: read-only, whether the drive fails once or not
                assertThat(later).as("later commits on ext4").containsOnly("SQLITE_IOERR_WRITE");
            } else {
                assertThat(later).as("later commits once the syncs work again").containsOnly("null");
            }
        }
    }

    private SimulatedDisk disk(String model) throws IOException {
        if (model.equals("FILE")) {
            return SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("files"));
        }
        Mounts.requireMountTools();
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).create(tmp.resolve("disk"));
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * SQLite's documented durability, measured by cutting the power: in WAL mode, synchronous=FULL syncs the
 * WAL at every commit, so no acknowledged commit is lost; synchronous=NORMAL syncs only at checkpoints,
 * so the commits since the last one may be lost (https://www.sqlite.org/pragma.html#pragma_synchronous).
 * Neither may corrupt the database.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SqlitePowerCutTests {

    private static final int COMMITS = 100;
    private static final int CUTS = 4;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    /** {acknowledged, survived} after one cut at the end of COMMITS one-row commits. */
    private static long[] commitAndCut(String synchronous, long seed) throws Exception {
        Path work = Path.of("/dev/shm", "flushcheck-sqlite-cut-" + ProcessHandle.current().pid());
        try (SimulatedDisk disk = SimulatedDisk.create(work, 64L << 20, "ext4", List.of())) {
            String db = disk.path().resolve("app.db").toString();
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
            long acknowledged = 0;
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=" + synchronous);
                s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (v) VALUES (?)")) {
                for (int i = 0; i < COMMITS; i++) {
                    insert.setString(1, "row " + i);
                    insert.executeUpdate();
                    acknowledged++;
                }
            }
            Path survivor = disk.cutPower(seed);
            try {
                c.close(); // its last writes reach a drive without power: discarded
            } catch (SQLException ignored) {
                // a closed connection on a dead drive may complain; what survived is what counts
            }
            try (Connection r = DriverManager.getConnection("jdbc:sqlite:" + survivor.resolve("app.db"));
                 Statement s = r.createStatement()) {
                long survived = 0;
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                    survived = rs.next() ? rs.getLong(1) : 0;
                } catch (SQLException noTable) {
                    // the table's creation itself was not durable
                }
                try (ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                    assertThat(rs.next() ? rs.getString(1) : "no answer").as("integrity after a cut").isEqualTo("ok");
                }
                return new long[] {acknowledged, survived};
            }
        }
    }

    @Test
    void walWithSynchronousFullLosesNoAcknowledgedCommit() throws Exception {
        for (long seed = 1; seed <= CUTS; seed++) {
            long[] r = commitAndCut("FULL", seed);
            assertThat(r[1]).as("seed %d: rows after the cut of %d acknowledged", seed, r[0]).isEqualTo(r[0]);
        }
    }

    @Test
    void walWithSynchronousNormalLosesTheCommitsSinceTheLastSync() throws Exception {
        long lost = 0;
        for (long seed = 1; seed <= CUTS; seed++) {
            long[] r = commitAndCut("NORMAL", seed);
            assertThat(r[1]).isLessThanOrEqualTo(r[0]);
            lost += r[0] - r[1];
        }
        System.out.printf("WAL+NORMAL: %d of %d acknowledged commits lost over %d cuts%n", lost, COMMITS * CUTS, CUTS);
        assertThat(lost).as("acknowledged commits lost over %d cuts", CUTS).isPositive();
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real SQLite (sqlite-jdbc) in WAL mode, a flipped bit in a committed frame of its log before a checkpoint: SQLite's
 * WAL frames carry cumulative checksums, and recovery ends the log at the first frame whose checksum does not match
 * (sqlite.org/fileformat2.html, "Checksum Algorithm"). So the commit whose frame rotted and every later one are gone
 * when the database is opened again, and opening it reports no error: acknowledged commits lost silently.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SqliteWalBitRotTests {

    private static final int COMMITS = 100;
    private static final int WAL_HEADER = 32;
    private static final int FRAME_HEADER = 24;

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} model")
    @ValueSource(strings = {"block", "file"})
    void aFlippedBitInACommittedFrameLosesThatCommitAndEveryLaterOneWithoutAnError(String model) throws Exception {
        try (SimulatedDisk disk = model.equals("block") ? TestDisks.ext4(tmp) : TestDisks.files(tmp)) {
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + disk.path().resolve("app.db"));
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=FULL");
                s.execute("PRAGMA wal_autocheckpoint=0"); // every commit stays in the log
                s.execute("CREATE TABLE t (v TEXT)");
                for (int i = 1; i <= COMMITS; i++) {
                    s.executeUpdate("INSERT INTO t (v) VALUES ('row " + i + "')"); // returns once committed
                }
            }
            // The power goes with the connection open, as under a running program: closing it would checkpoint.
            Path survivor = disk.cutPower();
            try {
                c.close();
            } catch (SQLException e) {
                // the disk under it is gone; the survivor is what counts
            }
            Path wal = survivor.resolve("app.db-wal");
            Wal log = Wal.read(wal);
            assertThat(log.commits()).as("the table's commit and one a row").hasSize(COMMITS + 1);
            int hit = COMMITS / 2; // the commit of row 50
            long frame = log.commits().get(hit);
            long frameBytes = FRAME_HEADER + log.pageSize();
            Corruption rot = disk.corrupt(DataFault.bitRot(wal).range(WAL_HEADER + frame * frameBytes, frameBytes).seed(11));

            List<String> rows = SqliteCrashStatesTests.rows(survivor.resolve("app.db"));
            System.out.printf("SQLite WAL, %s model: %s, in frame %d (the commit of row %d); opened again, the database"
                    + " holds %d of %d acknowledged rows, without an error%n", model, rot, frame, hit, rows.size(), COMMITS);
            List<String> before = new ArrayList<>();
            for (int i = 1; i < hit; i++) {
                before.add("row " + i);
            }
            assertThat(rows).as("the rows committed before the rotten frame, no more").isEqualTo(before);
        }
    }

    /** A WAL file's page size and its commit frames (by index), as its frame headers say, up to the first that does not belong. */
    private record Wal(int pageSize, List<Long> commits) {

        static Wal read(Path file) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file)); // big-endian, as SQLite writes them
            int pageSize = b.getInt(8);
            long salt1 = b.getInt(16);
            long salt2 = b.getInt(20);
            List<Long> commits = new ArrayList<>();
            for (long i = 0; WAL_HEADER + (i + 1) * (FRAME_HEADER + pageSize) <= b.capacity(); i++) {
                int at = (int) (WAL_HEADER + i * (FRAME_HEADER + pageSize));
                if (b.getInt(at + 8) != salt1 || b.getInt(at + 12) != salt2) {
                    break; // a frame of an earlier log
                }
                if (b.getInt(at + 4) != 0) {
                    commits.add(i); // the database's size after a commit: a commit frame
                }
            }
            return new Wal(pageSize, commits);
        }
    }
}

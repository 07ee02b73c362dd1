package io.flushcheck.sqlite;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedDiskBuilder;
import io.flushcheck.powercut.internal.matrix.CutTally;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apiguardian.api.API;

/**
 * What SQLite's journal modes and synchronous levels keep when the power goes, measured: for each cell,
 * {@code cuts} times, a fresh database on a {@link SimulatedDisk} takes a seeded number of one-row
 * commits, the power is cut (a seeded subset of the unflushed sectors survives), and the surviving
 * database is opened and counted against the commits that had returned. SQLite's documentation says what
 * to expect (https://www.sqlite.org/pragma.html#pragma_synchronous): WAL with FULL loses no commit, WAL
 * with NORMAL may lose those since the last checkpoint, DELETE with FULL may roll back the last one (the
 * journal's deletion is not synced), DELETE with EXTRA syncs that too; no setting but OFF may corrupt.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class PowerCutMatrix {

    /** Commits per cut: a seeded number in {@code [MIN_COMMITS, MAX_COMMITS]}. */
    static final int MIN_COMMITS = 20;
    static final int MAX_COMMITS = 200;
    private static final long DISK_BYTES = 32L << 20;

    /**
     * One cell's figures.
     *
     * @param acknowledged    commits that returned before the cuts, all cuts together
     * @param lost            of those, the rows missing after the cuts
     * @param cutsThatLost    cuts after which at least one acknowledged row was missing
     * @param maxLostInOneCut the most rows one cut lost
     * @param corrupt         cuts after which the database failed {@code PRAGMA integrity_check} or would not open
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Row(JournalMode journalMode, Synchronous synchronous, int cuts, long acknowledged, long lost,
                      int cutsThatLost, long maxLostInOneCut, int corrupt) {
    }

    /** Progress, one call per cut. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public interface Listener {
        void cut(JournalMode journalMode, Synchronous synchronous, int cut, int cuts, long seed, long acknowledged,
                 long survived, boolean intact);
    }

    private PowerCutMatrix() {
    }

    /**
     * Runs every journal mode × synchronous cell {@code cuts} times, on ext4 on simulated drives (the block
     * model) under {@code work}. The seed of each cut derives from {@code seed}, so a run repeats exactly.
     */
    public static List<Row> run(Path work, List<JournalMode> journalModes, List<Synchronous> levels, int cuts,
                                long seed, Listener listener) throws IOException, SQLException {
        return run(work, DiskModel.BLOCK, journalModes, levels, cuts, seed, listener);
    }

    /**
     * As {@link #run(Path, List, List, int, long, Listener)}, on disks of {@code model}: the file model keeps
     * what SQLite's own syncs of files and directories made durable, and no more.
     */
    public static List<Row> run(Path work, DiskModel model, List<JournalMode> journalModes, List<Synchronous> levels,
                                int cuts, long seed, Listener listener) throws IOException, SQLException {
        return run(work, model, FileRules.JOURNALED, journalModes, levels, cuts, seed, listener);
    }

    /**
     * As {@link #run(Path, DiskModel, List, List, int, long, Listener)}, the file model under {@code rules}
     * ({@link FileRules#POSIX} keeps a name only once its directory is synced); the block model has its
     * filesystem's rules and takes none.
     */
    public static List<Row> run(Path work, DiskModel model, FileRules rules, List<JournalMode> journalModes,
                                List<Synchronous> levels, int cuts, long seed, Listener listener)
            throws IOException, SQLException {
        if (cuts < 1) {
            throw new IllegalArgumentException("cuts must be at least 1, not " + cuts);
        }
        List<Row> rows = new ArrayList<>();
        Random seeds = new Random(seed);
        for (JournalMode mode : journalModes) {
            for (Synchronous level : levels) {
                CutTally tally = new CutTally();
                for (int i = 0; i < cuts; i++) {
                    long cutSeed = seeds.nextLong();
                    long[] r = once(work, model, rules, mode, level, cutSeed);
                    tally.add(r[0], r[1], r[2] == 1);
                    listener.cut(mode, level, i + 1, cuts, cutSeed, r[0], r[1], r[2] == 1);
                }
                rows.add(new Row(mode, level, cuts, tally.acknowledged(), tally.lost(), tally.cutsThatLost(),
                        tally.maxLostInOneCut(), tally.broken()));
            }
        }
        return rows;
    }

    /** {acknowledged, survived, intact (1 or 0)} after one cut. */
    private static long[] once(Path work, DiskModel model, FileRules rules, JournalMode mode, Synchronous level,
                               long seed) throws IOException, SQLException {
        Random random = new Random(seed);
        int commits = MIN_COMMITS + random.nextInt(MAX_COMMITS - MIN_COMMITS + 1);
        SimulatedDiskBuilder builder = SimulatedDisk.builder().model(model).sizeBytes(DISK_BYTES);
        // The block model has its filesystem's rules and refuses others.
        try (SimulatedDisk disk = (model.resolved() == DiskModel.FILE ? builder.rules(rules) : builder).create(work)) {
            Path db = disk.path().resolve("matrix.db");
            long acknowledged = 0;
            Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
            try {
                try (Statement s = c.createStatement()) {
                    s.execute("PRAGMA journal_mode=" + mode.name());
                    s.execute("PRAGMA synchronous=" + level.name());
                    s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
                }
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (v) VALUES (?)")) {
                    for (int i = 0; i < commits; i++) {
                        insert.setString(1, "row " + i);
                        insert.executeUpdate();
                        acknowledged++;
                    }
                }
                Path survivor = disk.cutPower(random.nextLong());
                return survivors(survivor.resolve("matrix.db"), acknowledged);
            } finally {
                try {
                    c.close(); // on a drive without power: whatever it writes is discarded
                } catch (SQLException ignored) {
                    // what survived is what counts
                }
            }
        }
    }

    private static long[] survivors(Path db, long acknowledged) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
            long survived = 0;
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                survived = rs.next() ? rs.getLong(1) : 0;
            } catch (SQLException noTable) {
                // the table's creation itself was lost: no row survived
                if (!noTable.getMessage().contains("no such table")) {
                    return new long[] {acknowledged, 0, 0};
                }
            }
            try (ResultSet rs = s.executeQuery("PRAGMA integrity_check")) {
                boolean ok = rs.next() && "ok".equals(rs.getString(1));
                return new long[] {acknowledged, survived, ok ? 1 : 0};
            }
        } catch (SQLException e) {
            return new long[] {acknowledged, 0, 0};
        }
    }

    /** The table people read: one line per cell. */
    public static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT, "%-8s %-11s %5s %13s %6s %14s %12s %8s%n",
                "journal", "synchronous", "cuts", "acknowledged", "lost", "cuts that lost", "most in one", "corrupt"));
        for (Row r : rows) {
            sb.append(String.format(java.util.Locale.ROOT, "%-8s %-11s %5d %13d %6d %14d %12d %8d%n", r.journalMode(),
                    r.synchronous(), r.cuts(), r.acknowledged(), r.lost(), r.cutsThatLost(), r.maxLostInOneCut(), r.corrupt()));
        }
        return sb.toString();
    }
}

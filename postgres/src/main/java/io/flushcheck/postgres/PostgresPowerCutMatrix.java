package io.flushcheck.postgres;

import io.flushcheck.powercut.ProcessWorld;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.internal.matrix.CutTally;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * What PostgreSQL's settings keep of acknowledged commits when the power goes, measured: for each row of
 * settings, {@code cuts} times, a copy of a fresh cluster on a {@link SimulatedDisk} (synced) is started
 * with those settings in a process world that dies with the disk's power; a client in this JVM (outside
 * that world, as a client on another machine is) commits a seeded number of one-row transactions and
 * notes each one the server acknowledged; the power is cut (a seeded subset of the sectors written since
 * the last flush survives), and a server started on what survived replays its WAL and is asked which rows
 * it has. PostgreSQL's documentation says what to expect: with the defaults no acknowledged commit is
 * lost; {@code synchronous_commit=off} may lose the most recent ones (up to three times
 * {@code wal_writer_delay}) but the database stays consistent
 * (https://www.postgresql.org/docs/current/wal-async-commit.html); {@code fsync=off} may lose commits and may
 * leave a cluster that does not recover (https://www.postgresql.org/docs/current/runtime-config-wal.html).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class PostgresPowerCutMatrix {

    /** Commits per cut: a seeded number in {@code [MIN_COMMITS, MAX_COMMITS]}. */
    static final int MIN_COMMITS = 20;
    static final int MAX_COMMITS = 200;
    private static final long DISK_BYTES = 256L << 20;
    private static final long START_MILLIS = 60_000;

    /** The rows when none are given: the defaults, an asynchronous commit, and no fsync at all. */
    public static final List<List<String>> DEFAULT_ROWS = List.of(List.of(), List.of("synchronous_commit=off"),
            List.of("fsync=off"));

    /**
     * One row's figures.
     *
     * @param settings        the server's settings beyond its defaults, {@code name=value} each
     * @param acknowledged    commits the server acknowledged before the cuts, all cuts together
     * @param lost            of those, the rows missing after the cuts (all of a cut's, when its survivor did not start)
     * @param cutsThatLost    cuts after which at least one acknowledged row was missing
     * @param maxLostInOneCut the most rows one cut lost
     * @param recovered       cuts whose survivor started, replayed its WAL and answered
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Row(List<String> settings, int cuts, long acknowledged, long lost, int cutsThatLost, long maxLostInOneCut,
                      int recovered) {

        public Row {
            settings = List.copyOf(settings);
        }
    }

    /** Progress, one call per cut. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public interface Listener {
        void cut(List<String> settings, int cut, int cuts, long seed, long acknowledged, long survived, boolean recovered);
    }

    private PostgresPowerCutMatrix() {
    }

    /**
     * Runs every row {@code cuts} times, each disk in {@code work} (made, and removed with the disk). Each cut's seed derives from
     * {@code seed}, so a run repeats its commits and its surviving sectors.
     */
    public static List<Row> run(Path work, PostgresInstallation pg, List<List<String>> rows, int cuts, long seed,
                                Listener listener) throws IOException, SQLException {
        if (cuts < 1) {
            throw new IllegalArgumentException("cuts must be at least 1, not " + cuts);
        }
        for (List<String> row : rows) {
            for (String s : row) {
                Settings.check(s);
            }
        }
        List<Row> out = new ArrayList<>();
        Random seeds = new Random(seed);
        try (TemplateCluster template = TemplateCluster.make(pg)) {
            for (List<String> settings : rows) {
                CutTally tally = new CutTally();
                for (int i = 0; i < cuts; i++) {
                    long cutSeed = seeds.nextLong();
                    Outcome o = once(work, pg, template, settings, cutSeed);
                    tally.add(o.acknowledged, o.survived, o.recovered);
                    listener.cut(settings, i + 1, cuts, cutSeed, o.acknowledged, o.survived, o.recovered);
                }
                out.add(new Row(settings, cuts, tally.acknowledged(), tally.lost(), tally.cutsThatLost(), tally.maxLostInOneCut(),
                        tally.whole()));
            }
        }
        return out;
    }

    private record Outcome(long acknowledged, long survived, boolean recovered) {
    }

    private static Outcome once(Path work, PostgresInstallation pg, TemplateCluster template, List<String> settings,
                                long seed) throws IOException, SQLException {
        int commits = MIN_COMMITS + new Random(seed).nextInt(MAX_COMMITS - MIN_COMMITS + 1);
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(DISK_BYTES).create(work)) {
            Path data = disk.path().resolve("pg");
            template.copyTo(data);
            PostgresInstallation.run(List.of("sync", "-f", data.toString()));
            List<Integer> acked = new ArrayList<>();
            Path survivor;
            try (Server server = Server.start(pg, data, settings, disk::start, START_MILLIS)) {
                commit(server, commits, acked);
                // The server dies with the power, before anything it has not yet acknowledged can be.
                survivor = disk.cutPower(seed);
            }
            Set<Integer> present;
            try (Server again = Server.start(pg, survivor.resolve("pg"), List.of(), ProcessWorld::start, START_MILLIS)) {
                present = rows(again);
            } catch (IOException | SQLException e) {
                return new Outcome(acked.size(), 0, false);
            }
            long survived = acked.stream().filter(present::contains).count();
            return new Outcome(acked.size(), survived, true);
        }
    }

    /** One-row transactions, each noted once the server acknowledged it. */
    private static void commit(Server server, int commits, List<Integer> acked) throws SQLException {
        try (Connection c = server.connect();
             PreparedStatement insert = c.prepareStatement("insert into " + TemplateCluster.TABLE + " values (?)")) {
            for (int i = 1; i <= commits; i++) {
                insert.setInt(1, i);
                insert.executeUpdate();
                acked.add(i);
            }
        }
    }

    private static Set<Integer> rows(Server server) throws SQLException {
        Set<Integer> ids = new HashSet<>();
        try (Connection c = server.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("select id from " + TemplateCluster.TABLE)) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** The matrix as a table: one line per row of settings. */
    public static String table(List<Row> rows) {
        int width = "settings".length();
        for (Row r : rows) {
            width = Math.max(width, Settings.describe(r.settings()).length());
        }
        String format = "%-" + width + "s %5s %13s %6s %15s %12s %10s%n";
        StringBuilder sb = new StringBuilder(String.format(java.util.Locale.ROOT, format, "settings", "cuts", "acknowledged",
                "lost", "cuts that lost", "most in one", "recovered"));
        for (Row r : rows) {
            sb.append(String.format(java.util.Locale.ROOT, format, Settings.describe(r.settings()), r.cuts(), r.acknowledged(),
                    r.lost(), r.cutsThatLost(), r.maxLostInOneCut(), r.recovered() + " of " + r.cuts()));
        }
        return sb.toString();
    }
}

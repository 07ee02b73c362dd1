import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DataFault;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.ReadBack;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The crash states of one recorded run of SQLite WAL with synchronous FULL (COMMITS one-row commits) checked
 * undamaged and with up to BLOCKS damaged blocks a state ({@link CrashStates#damaged}), the two checks of the same
 * recording alternating over ROUNDS rounds (run by damaged-crash-states-bench.sh); the medians are printed with
 * their ratio. The verification reads the rows back: undamaged, every acknowledged row must be there (the bench
 * fails otherwise); damaged, the outcomes are counted as {@link AcknowledgedRecords#judge} tells them, a read that
 * throws counted as detected.
 */
public final class DamagedCrashStatesBench {

    public static void main(String[] args) throws Exception {
        int commits = Integer.parseInt(args[0]);
        int maxStates = Integer.parseInt(args[1]);
        int blocks = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[4]);
        Path work = Path.of("/dev/shm", "flushcheck-damaged-states-bench-" + ProcessHandle.current().pid());
        for (String model : args[3].split(",")) {
            DiskModel m = DiskModel.valueOf(model.trim().toUpperCase(Locale.ROOT));
            compare(work, m, commits, maxStates, blocks, rounds);
        }
    }

    private static SimulatedDisk disk(Path work, DiskModel model) throws IOException {
        return model == DiskModel.FILE ? SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).create(work)
                : SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096").create(work);
    }

    private static void compare(Path work, DiskModel model, int commits, int maxStates, int blocks, int rounds)
            throws Exception {
        try (SimulatedDisk disk = disk(work, model)) {
            CrashStates states = disk.recordCrashStates(a -> run(disk, a, commits));
            Map<ReadBack.Outcome, Integer> outcomes = new EnumMap<>(ReadBack.Outcome.class);
            double[] plain = new double[rounds];
            double[] damaged = new double[rounds];
            CrashStateReport plainReport = null;
            CrashStateReport damagedReport = null;
            List<String> loads = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                loads.add(load());
                long t0 = System.nanoTime();
                plainReport = states.damaged(0, 0).check(maxStates, (survivor, mustSurvive) -> {
                    List<String> rows = rows(survivor);
                    if (!rows.containsAll(mustSurvive)) {
                        throw new AssertionError("lost some of " + mustSurvive + ": " + rows);
                    }
                });
                plain[r] = (System.nanoTime() - t0) / 1e9;
                plainReport.assertPassed();
                outcomes.clear();
                long t1 = System.nanoTime();
                damagedReport = states.damaged(List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED), 4096, blocks, 1)
                        .check(maxStates, (survivor, mustSurvive) -> {
                            ReadBack.Outcome o;
                            try {
                                o = AcknowledgedRecords.judge(mustSurvive, states.acknowledged().all(), rows(survivor), "")
                                        .outcome();
                            } catch (SQLException e) {
                                o = ReadBack.Outcome.DETECTED;
                            }
                            synchronized (outcomes) {
                                outcomes.merge(o, 1, Integer::sum);
                            }
                        });
                damaged[r] = (System.nanoTime() - t1) / 1e9;
                System.err.printf(Locale.ROOT, "bench: %s model, round %d: %.1f s undamaged, %.1f s damaged%n", model,
                        r + 1, plain[r], damaged[r]);
            }
            double p = median(plain);
            double d = median(damaged);
            System.out.printf(Locale.ROOT, "%s model, SQLite WAL+FULL, %d one-row commits, %d writes in %d epochs:%n",
                    model, commits, states.writes(), states.epochs());
            System.out.printf(Locale.ROOT, "   undamaged: %d states (%d left out by %d), median %.2f s of %s (%.1f states/s)%n",
                    plainReport.checked(), plainReport.leftOut(), maxStates, p, Arrays.toString(round(plain)),
                    plainReport.checked() / p);
            System.out.printf(Locale.ROOT, "   damaged, up to %d blocks of 4096 a state: %d states and %d damaged checks,"
                            + " median %.2f s of %s (%.1f checks/s), %.2fx the undamaged time; the reads of the last"
                            + " round's checks, each state undamaged included: %s%n", blocks, damagedReport.checked(),
                    damagedReport.damagedChecks(), d,
                    Arrays.toString(round(damaged)), (damagedReport.checked() + damagedReport.damagedChecks()) / d, d / p,
                    outcomes);
            System.out.println("   load at each round's start: " + String.join("; ", loads));
        }
    }

    private static double[] round(double[] values) {
        return Arrays.stream(values).map(v -> Math.round(v * 100) / 100.0).toArray();
    }

    private static void run(SimulatedDisk disk, AcknowledgedRecords acknowledged, int n) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + disk.path().resolve("bench.db"))) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=FULL");
                s.execute("CREATE TABLE t (v TEXT)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (v) VALUES (?)")) {
                for (int i = 0; i < n; i++) {
                    insert.setString(1, "row " + i);
                    insert.executeUpdate();
                    acknowledged.add("row " + i);
                }
            }
        }
    }

    private static List<String> rows(Path survivor) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + survivor.resolve("bench.db"));
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT v FROM t")) {
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

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String load() throws IOException {
        String[] w = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return w[0] + " " + w[1] + " " + w[2];
    }
}

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Every crash state of one recorded run against the sweep that re-runs the workload for each crash point, for
 * the same workloads side by side in one run (run by crash-states-bench.sh): a record a flush (FLUSHES records,
 * each overwritten in place and fdatasynced), and SQLite WAL with synchronous FULL (COMMITS one-row commits).
 * The sweep cuts after and during each of the workload's flushes and at its end (2F+1 cuts, a fresh disk each,
 * the workload run again each time); the exploration records the workload once and mounts and checks each of its
 * crash states. Both check that every acknowledged record survived; a loss fails the bench. On the block model
 * (32 MiB ext4 with 4 KiB blocks), the file model (64 MiB, journaled rules) or both, one after the other. The
 * exploration runs once for each count of workers given ({@link CrashStates#inParallel(int)}), the counts alternating
 * over the rounds, and prints each one's median with its ratio to the first count's. A slow check (SLOW_MS
 * milliseconds of sleep in each verification, as a check that waits on a server or a process) shows how the
 * workers scale where verifying costs more than writing the state out.
 */
public final class CrashStatesBench {

    /** Milliseconds each verification sleeps besides its check: 0 for none. */
    private static long slowMillis;

    /** One workload: run on a disk, acknowledging as it goes; and the check of a survivor. */
    interface Workload {
        void run(SimulatedDisk disk, AcknowledgedRecords acknowledged) throws Exception;

        List<String> survived(Path survivor) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int flushes = Integer.parseInt(args[0]);
        int commits = Integer.parseInt(args[1]);
        int maxStates = Integer.parseInt(args[2]);
        int[] workers = Arrays.stream(args[4].split(",")).mapToInt(w -> Integer.parseInt(w.trim())).toArray();
        int rounds = Integer.parseInt(args[5]);
        boolean sweep = Boolean.parseBoolean(args[6]);
        slowMillis = args.length > 7 ? Long.parseLong(args[7]) : 0;
        Path work = Path.of("/dev/shm", "flushcheck-states-bench-" + ProcessHandle.current().pid());
        for (String model : args[3].split(",")) {
            DiskModel m = DiskModel.valueOf(model.trim().toUpperCase(Locale.ROOT));
            if (flushes > 0) {
                compare(m + " model, a record a flush, " + flushes + " records", work, m, records(flushes), maxStates,
                        workers, rounds, sweep);
            }
            if (commits > 0) {
                compare(m + " model, SQLite WAL+FULL, " + commits + " one-row commits", work, m, sqlite(commits), maxStates,
                        workers, rounds, sweep);
            }
        }
    }

    private static SimulatedDisk disk(Path work, DiskModel model) throws IOException {
        return model == DiskModel.FILE ? SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).create(work)
                : SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096").create(work);
    }

    private static void compare(String name, Path work, DiskModel model, Workload workload, int maxStates,
                                int[] workers, int rounds, boolean sweepToo) throws Exception {
        long f;
        try (SimulatedDisk disk = disk(work, model)) {
            long base = disk.flushes();
            workload.run(disk, AcknowledgedRecords.on(disk));
            f = disk.flushes() - base;
        }
        String loadSweep = load();
        long t0 = System.nanoTime();
        int cuts = 0;
        for (long k = 0; sweepToo && k <= f; k++) {
            for (boolean during : k == 0 ? new boolean[] {false} : new boolean[] {false, true}) {
                try (SimulatedDisk disk = disk(work, model)) {
                    long base = disk.flushes();
                    if (k > 0 && during) {
                        disk.cutDuringFlush(base + k, k);
                    } else if (k > 0) {
                        disk.cutAfterFlushes(base + k);
                    }
                    AcknowledgedRecords acks = disk.untilPowerCut(a -> workload.run(disk, a));
                    acks.assertDurable(workload.survived(disk.cutPower()));
                }
                cuts++;
                if (cuts % 50 == 0) {
                    System.err.printf(Locale.ROOT, "bench: %s, sweep, cut %d/%d%n", name, cuts, 2 * f + 1);
                }
            }
        }
        double sweep = (System.nanoTime() - t0) / 1e9;
        double[][] perSecond = new double[workers.length][rounds];
        String[] loads = new String[workers.length];
        Explored report = null;
        double[] seconds = new double[workers.length];
        if (!sweepToo) {
            explore(work, model, workload, maxStates, workers[workers.length - 1]); // the JVM's warm-up, not timed
        }
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < workers.length; j++) {
                String loadBefore = load();
                long t1 = System.nanoTime();
                report = explore(work, model, workload, maxStates, workers[j]);
                double explore = (System.nanoTime() - t1) / 1e9;
                perSecond[j][r] = report.states.checked() / explore;
                seconds[j] = explore;
                loads[j] = loads[j] == null ? loadBefore : loads[j] + ", " + loadBefore;
            }
        }
        System.out.printf(Locale.ROOT, "%s, %d flushes, %d %s%s:%n", name, f, report.writes(),
                model == DiskModel.FILE ? "operations" : "writes", slowMillis > 0 ? ", each check sleeping " + slowMillis
                + " ms" : "");
        if (sweepToo) {
            System.out.printf(Locale.ROOT, "   sweep: %d cuts, each re-running the workload on a fresh disk: %.1f s, %.1f cuts/s"
                    + " (load %s)%n", cuts, sweep, cuts / sweep, loadSweep);
        }
        double first = median(perSecond[0]);
        for (int j = 0; j < workers.length; j++) {
            double median = median(perSecond[j]);
            System.out.printf(Locale.ROOT, "   every crash state of one run, %d %s: %d states (%d duplicates, %d left out by"
                    + " %d), %s recording included, median %.1f states/s%s (load %s); target for 1,000 states of a"
                    + " 100-flush workload < 30 s%n", workers[j], workers[j] == 1 ? "worker" : "workers", report.states.checked(),
                    report.states.duplicates(), report.states.leftOut(), maxStates, rounds == 1
                    ? String.format(Locale.ROOT, "%.1f s", seconds[j]) : "rounds of " + Arrays.toString(
                    Arrays.stream(perSecond[j]).map(v -> Math.round(v * 10) / 10.0).toArray()) + " states/s",
                    median, j == 0 ? "" : String.format(Locale.ROOT, ", %.2fx the %d-worker figure", median / first,
                    workers[0]), loads[j]);
        }
    }

    /** What one exploration checked, and the writes (on the file model, operations) it recorded. */
    private record Explored(CrashStateReport states, int writes) {
    }

    /** Records the workload once on a fresh disk and checks every crash state on {@code workers} workers. */
    private static Explored explore(Path work, DiskModel model, Workload workload, int maxStates, int workers)
            throws Exception {
        try (SimulatedDisk disk = disk(work, model)) {
            CrashStates states = disk.recordCrashStates(a -> workload.run(disk, a));
            CrashStateReport report = states.inParallel(workers).check(maxStates, (survivor, mustSurvive) -> {
                if (slowMillis > 0) {
                    Thread.sleep(slowMillis);
                }
                List<String> survived = workload.survived(survivor);
                if (!survived.containsAll(mustSurvive)) {
                    throw new AssertionError("lost some of " + mustSurvive + ": " + survived);
                }
            });
            report.assertPassed();
            return new Explored(report, states.writes());
        }
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

    /** n records of 4 KiB in a preallocated file, each written in place and fdatasynced: one flush a record. */
    private static Workload records(int n) {
        return new Workload() {
            @Override
            public void run(SimulatedDisk disk, AcknowledgedRecords acknowledged) throws IOException {
                Path file = disk.path().resolve("records");
                if (!Files.exists(file)) {
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                        ch.write(ByteBuffer.allocate(n * 4096), 0);
                        ch.force(true);
                    }
                    try (FileChannel dir = FileChannel.open(disk.path(), StandardOpenOption.READ)) {
                        dir.force(true);
                    }
                }
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    for (int i = 0; i < n; i++) {
                        ch.write(ByteBuffer.wrap(("record " + i).getBytes(StandardCharsets.UTF_8)), i * 4096L);
                        ch.force(false);
                        acknowledged.add("record " + i);
                    }
                }
            }

            @Override
            public List<String> survived(Path survivor) throws IOException {
                List<String> kept = new ArrayList<>();
                Path file = survivor.resolve("records");
                if (!Files.exists(file)) {
                    return kept;
                }
                byte[] bytes = Files.readAllBytes(file);
                for (int i = 0; i < n && (i + 1) * 4096 <= bytes.length; i++) {
                    String expected = "record " + i;
                    if (new String(bytes, i * 4096, expected.length(), StandardCharsets.UTF_8).equals(expected)) {
                        kept.add(expected);
                    }
                }
                return kept;
            }
        };
    }

    /** SQLite WAL with synchronous FULL: a table, then n one-row commits, each acknowledged once it returned. */
    private static Workload sqlite(int n) {
        return new Workload() {
            @Override
            public void run(SimulatedDisk disk, AcknowledgedRecords acknowledged) throws SQLException {
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

            @Override
            public List<String> survived(Path survivor) throws SQLException {
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
        };
    }
}

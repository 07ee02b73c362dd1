import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.PowerCutMatrix;
import io.flushcheck.sqlite.Synchronous;
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
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The power-cut figures, printed (run by powercut-bench.sh): the cost of a cut-and-verify cycle beyond
 * its workload on each model, the time of a sweep of cuts per SQLite journal mode x synchronous cell, and the WAL+FULL
 * commit rate on the simulated disk against a directory on a real disk, alternated in one run.
 */
public final class PowerCutBench {

    public static void main(String[] args) throws Exception {
        int cycles = Integer.parseInt(args[0]);
        int cuts = Integer.parseInt(args[1]);
        int commits = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        Path realDir = Path.of(args[4]);
        Path work = Path.of("/dev/shm", "flushcheck-bench-" + ProcessHandle.current().pid());
        if (cycles > 0) {
            cycles(work, cycles);
        }
        if (cuts > 0) {
            sweeps(work, cuts);
        }
        if (rounds > 0) {
            commitRates(work, realDir, commits, rounds);
        }
    }

    /**
     * Disk made, a synced file written (the workload, not counted), cut, survivor read, all undone: on the
     * block model (mkfs, mount) and on the file model, alternated cycle by cycle so that both see the same load.
     */
    private static void cycles(Path work, int n) throws IOException {
        Map<DiskModel, List<double[]>> times = new EnumMap<>(DiskModel.class);
        times.put(DiskModel.BLOCK, new ArrayList<>());
        times.put(DiskModel.FILE, new ArrayList<>());
        for (int i = 0; i < n; i++) {
            List<DiskModel> order = i % 2 == 0 ? List.of(DiskModel.BLOCK, DiskModel.FILE) : List.of(DiskModel.FILE, DiskModel.BLOCK);
            for (DiskModel model : order) {
                double[] t = cycle(work, model);
                times.get(model).add(t);
                System.err.printf(Locale.ROOT, "bench: cycle %d/%d, %s model: %.3f s%n", i + 1, n, model, t[3]);
            }
        }
        for (DiskModel model : List.of(DiskModel.BLOCK, DiskModel.FILE)) {
            List<double[]> t = times.get(model);
            System.out.printf(Locale.ROOT, "cut-and-verify cycle beyond the workload, %s model, median of %d%s: %.3f s"
                            + " (make disk %.3f s, cut and %s survivor %.3f s, undo %.3f s)%n", model, n,
                    model == DiskModel.BLOCK ? " (32 MiB ext4)" : "", median(t, 3), median(t, 0),
                    model == DiskModel.BLOCK ? "mount" : "write out", median(t, 1), median(t, 2));
        }
    }

    /** {make, cut and survivor, undo, all but the workload} of one cycle, in seconds. */
    private static double[] cycle(Path work, DiskModel model) throws IOException {
        long t0 = System.nanoTime();
        SimulatedDisk disk = SimulatedDisk.create(model, work, 32L << 20, "ext4", 4096);
        long t1;
        long t2;
        long t3;
        try {
            t1 = System.nanoTime();
            try (FileChannel ch = FileChannel.open(disk.path().resolve("data"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap("kept".getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            try (FileChannel dir = FileChannel.open(disk.path(), StandardOpenOption.READ)) {
                dir.force(true);
            }
            t2 = System.nanoTime();
            Path survivor = disk.cutPower();
            if (!Files.readString(survivor.resolve("data")).equals("kept")) {
                throw new IllegalStateException("the synced file did not survive on the " + model + " model");
            }
            t3 = System.nanoTime();
        } finally {
            disk.close();
        }
        long t4 = System.nanoTime();
        return new double[] {(t1 - t0) / 1e9, (t3 - t2) / 1e9, (t4 - t3) / 1e9, (t1 - t0 + t4 - t2) / 1e9};
    }

    private static double median(List<double[]> rows, int column) {
        List<Double> v = new ArrayList<>();
        for (double[] r : rows) {
            v.add(r[column]);
        }
        return median(v);
    }

    /** PowerCutMatrix per cell, {@code cuts} cuts each, timed. */
    private static void sweeps(Path work, int cuts) throws Exception {
        List<PowerCutMatrix.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        long all = System.nanoTime();
        for (JournalMode mode : List.of(JournalMode.DELETE, JournalMode.WAL)) {
            for (Synchronous level : List.of(Synchronous.NORMAL, Synchronous.FULL, Synchronous.EXTRA)) {
                long t0 = System.nanoTime();
                rows.addAll(PowerCutMatrix.run(work, List.of(mode), List.of(level), cuts, 2026,
                        (m, s, i, n, seed, a, v, ok) -> System.err.printf(Locale.ROOT, "bench: %s+%s cut %d/%d%n", m, s, i, n)));
                lines.add(String.format(Locale.ROOT, "%d-cut sweep %s+%s: %.1f s", cuts, mode, level, (System.nanoTime() - t0) / 1e9));
            }
        }
        double seconds = (System.nanoTime() - all) / 1e9;
        lines.forEach(System.out::println);
        System.out.printf(Locale.ROOT, "all 6 cells, %d cuts: %.1f s (%.3f s a cut, workload included); target < 120 s%n",
                6 * cuts, seconds, seconds / (6 * cuts));
        System.out.print(PowerCutMatrix.table(rows));
    }

    /** WAL+FULL one-row commits, simulated disk and real directory alternated, {@code rounds} each. */
    private static void commitRates(Path work, Path realDir, int commits, int rounds) throws Exception {
        List<Double> simulated = new ArrayList<>();
        List<Double> real = new ArrayList<>();
        Path realWork = Files.createDirectories(realDir.resolve("flushcheck-bench-" + ProcessHandle.current().pid()));
        try {
            for (int r = 0; r < rounds; r++) {
                try (SimulatedDisk disk = SimulatedDisk.create(work, 256L << 20, "ext4", List.of())) {
                    simulated.add(commitsPerSecond(disk.path().resolve("bench.db"), commits));
                    disk.cutPower();
                }
                real.add(commitsPerSecond(realWork.resolve("bench-" + r + ".db"), commits));
                System.err.printf(Locale.ROOT, "bench: round %d/%d: simulated %.0f, real %.0f commits/s%n", r + 1, rounds,
                        simulated.get(r), real.get(r));
            }
        } finally {
            try (var s = Files.walk(realWork)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
        double sim = median(simulated);
        double disk = median(real);
        System.out.printf(Locale.ROOT, "WAL+FULL one-row commits, median of %d rounds of %d, alternated: simulated disk"
                        + " %.0f/s, real disk (%s) %.0f/s, simulated/real %.2f; target >= 1%n",
                rounds, commits, sim, realDir, disk, sim / disk);
    }

    private static double commitsPerSecond(Path db, int commits) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA synchronous=FULL");
                s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t (v) VALUES (?)")) {
                long t0 = System.nanoTime();
                for (int i = 0; i < commits; i++) {
                    insert.setString(1, "row " + i);
                    insert.executeUpdate();
                }
                return commits / ((System.nanoTime() - t0) / 1e9);
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> v = new ArrayList<>(values);
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}

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
 * its workload on each model, a sweep of every flush of a 100-flush workload on the block model, and the
 * WAL+FULL commit rate on the simulated disk against the same filesystem made the same way on a plain
 * loop device over a file, alternated in one run.
 */
public final class PowerCutBench {

    public static void main(String[] args) throws Exception {
        int cycles = Integer.parseInt(args[0]);
        int sweepFlushes = Integer.parseInt(args[1]);
        int commits = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        Path realDir = Path.of(args[4]);
        Path work = Path.of("/dev/shm", "flushcheck-bench-" + ProcessHandle.current().pid());
        if (cycles > 0) {
            cycles(work, cycles);
        }
        if (sweepFlushes > 0) {
            sweep(work, sweepFlushes);
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
        SimulatedDisk disk = SimulatedDisk.builder().model(model).sizeMiB(32).create(work);
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

    /**
     * A workload of {@code n} records, each written over its own 4 KiB slot of a preallocated file and made
     * durable by fdatasync (one flush each), cut at every one of its flushes in turn on a fresh 32 MiB ext4:
     * after each cut, every record whose fdatasync returned must be in the survivor.
     */
    private static void sweep(Path work, int n) throws IOException {
        long t0 = System.nanoTime();
        for (int k = 1; k <= n; k++) {
            try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).create(work)) {
                Path file = disk.path().resolve("records");
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                    ch.write(ByteBuffer.allocate(n * 4096), 0);
                    ch.force(true);
                }
                try (FileChannel dir = FileChannel.open(disk.path(), StandardOpenOption.READ)) {
                    dir.force(true);
                }
                disk.cutAfterFlushes(disk.flushes() + k);
                int acknowledged = 0;
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    for (int i = 0; i < n; i++) {
                        ch.write(ByteBuffer.wrap(("record " + i).getBytes(StandardCharsets.UTF_8)), i * 4096L);
                        ch.force(false);
                        acknowledged++;
                    }
                } catch (IOException e) {
                    // the power went: every later sync fails
                }
                byte[] survived = Files.readAllBytes(disk.cutPower().resolve("records"));
                for (int i = 0; i < acknowledged; i++) {
                    String expected = "record " + i;
                    if (!new String(survived, i * 4096, expected.length(), StandardCharsets.UTF_8).equals(expected)) {
                        throw new IllegalStateException("cut at flush " + k + ": acknowledged record " + i + " is lost");
                    }
                }
                if (acknowledged != k) {
                    throw new IllegalStateException("cut at flush " + k + ": " + acknowledged + " records acknowledged:"
                            + " the workload does not make one flush a record");
                }
            }
            if (k % 10 == 0) {
                System.err.printf(Locale.ROOT, "bench: sweep, cut %d/%d%n", k, n);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "sweep of every flush of a %d-flush workload (block model, 32 MiB ext4, a fresh"
                + " disk a cut): %.1f s, %.3f s a cut, workload included; target < 15 s%n", n, seconds, seconds / n);
    }

    /**
     * WAL+FULL one-row commits on the simulated disk (256 MiB ext4), on the file model, and on the same filesystem made the same
     * way (mkfs.ext4 with its defaults, journal included, mounted with the same options) on a plain loop
     * device, where nothing is simulated, over a file on the real disk ({@code realDir}) and over one in
     * /dev/shm (memory, as the simulated drive's store is, and no flush at all); alternated, {@code rounds} each.
     */
    private static void commitRates(Path work, Path realDir, int commits, int rounds) throws Exception {
        List<Double> simulated = new ArrayList<>();
        List<Double> files = new ArrayList<>();
        List<Double> onDisk = new ArrayList<>();
        List<Double> inMemory = new ArrayList<>();
        Path shm = work.resolveSibling(work.getFileName() + "-plain");
        Path disk = realDir.resolve("flushcheck-bench-" + ProcessHandle.current().pid() + "-plain");
        for (int r = 0; r < rounds; r++) {
            try (SimulatedDisk d = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(256).create(work)) {
                simulated.add(commitsPerSecond(d.path().resolve("bench.db"), commits));
                d.cutPower();
            }
            try (SimulatedDisk d = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(256).create(work)) {
                files.add(commitsPerSecond(d.path().resolve("bench.db"), commits));
                d.cutPower();
            }
            onDisk.add(onPlainLoop(disk, commits));
            inMemory.add(onPlainLoop(shm, commits));
            System.err.printf(Locale.ROOT, "bench: round %d/%d: simulated %.0f, file model %.0f, plain loop over a file on the real disk %.0f,"
                    + " in /dev/shm %.0f commits/s%n", r + 1, rounds, simulated.get(r), files.get(r), onDisk.get(r), inMemory.get(r));
        }
        double sim = median(simulated);
        System.out.printf(Locale.ROOT, "WAL+FULL one-row commits, median of %d rounds of %d, alternated, 256 MiB ext4 on each:"
                        + " simulated disk %.0f/s; plain loop device over a file on the real disk (%s) %.0f/s, simulated/plain"
                        + " %.2f; over a file in /dev/shm %.0f/s, simulated/plain %.2f; target >= 0.5; file model %.0f/s%n", rounds, commits, sim,
                findmnt(realDir), median(onDisk), sim / median(onDisk), median(inMemory), sim / median(inMemory),
                median(files));
    }

    private static String findmnt(Path dir) throws Exception {
        return run("findmnt", "-n", "-o", "SOURCE,FSTYPE", "-T", dir.toString()).replaceAll("\\s+", " ");
    }

    /** The commit rate on a fresh ext4 on a plain loop device over a file in {@code dir} (made, and removed after). */
    private static double onPlainLoop(Path dir, int commits) throws Exception {
        Files.createDirectories(dir);
        Path image = dir.resolve("disk.img");
        Path mount = Files.createDirectories(dir.resolve("fs"));
        try (FileChannel ch = FileChannel.open(image, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.truncate(0);
            ch.write(ByteBuffer.allocate(1), (256L << 20) - 1);
        }
        String loop = run("losetup", "--find", "--show", image.toString());
        try {
            run("mkfs.ext4", "-q", "-F", loop);
            run("mount", "-t", "ext4", "-o", "noinit_itable", loop, mount.toString());
            try {
                return commitsPerSecond(mount.resolve("bench.db"), commits);
            } finally {
                run("umount", mount.toString());
            }
        } finally {
            run("losetup", "--detach", loop);
            try (var s = Files.walk(dir)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
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

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.ReadFault;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What failing a survivor's reads costs, printed (run by survivor-reads-bench.sh): cycles of a disk with a synced
 * 64 KiB file, cut, the survivor's file read, closed; alternately without a read fault on the survivor and with one
 * armed as the cut returns ({@link SimulatedDisk#failReads}: the survivor moves onto a drive of its own), so both see
 * the same load. Medians of the cut, of the first failReads after it, of the read, and of the close.
 */
public final class SurvivorReadsBench {

    public static void main(String[] args) throws Exception {
        int cycles = Integer.parseInt(args[0]);
        Path work = Path.of(args[2]).resolve("flushcheck-survivor-reads-bench-" + ProcessHandle.current().pid());
        for (String m : args[1].split(",")) {
            DiskModel model = DiskModel.valueOf(m.trim().toUpperCase(Locale.ROOT));
            List<double[]> plain = new ArrayList<>();
            List<double[]> faulted = new ArrayList<>();
            for (int i = 0; i < 2 * cycles; i++) {
                boolean fault = i % 2 == 1;
                double[] t = cycle(work, model, fault);
                (fault ? faulted : plain).add(t);
                System.err.printf(Locale.ROOT, "bench: %s model, cycle %d/%d, %s: cut %.3f s, arm %.3f s, read %.3f s,"
                        + " close %.3f s%n", model, i / 2 + 1, cycles, fault ? "survivor reads fail" : "no fault",
                        t[0], t[1], t[2], t[3]);
            }
            for (boolean fault : new boolean[] {false, true}) {
                List<double[]> t = fault ? faulted : plain;
                System.out.printf(Locale.ROOT, "%s model, %s, median of %d: cut %.3f s, first failReads after it %.3f s,"
                                + " read %.3f s, close %.3f s, all %.3f s%n", model,
                        fault ? "a bad sector on the survivor" : "no fault on the survivor", cycles, median(t, 0),
                        median(t, 1), median(t, 2), median(t, 3), median(t, 4));
            }
            System.out.printf(Locale.ROOT, "%s model: cut to close with a survivor read fault / without: %.2fx%n", model,
                    median(faulted, 4) / median(plain, 4));
        }
    }

    /** {cut, arm, read, close, all} in seconds. */
    private static double[] cycle(Path work, DiskModel model, boolean fault) throws IOException {
        SimulatedDisk disk = SimulatedDisk.builder().model(model).sizeMiB(model == DiskModel.BLOCK ? 64 : 256).create(work);
        long t0;
        long t1;
        long t2;
        long t3;
        try {
            Path file = disk.path().resolve("data");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.allocate(64 << 10), 0);
                ch.force(true);
            }
            try (FileChannel dir = FileChannel.open(disk.path(), StandardOpenOption.READ)) {
                dir.force(true);
            }
            t0 = System.nanoTime();
            Path survivor = disk.cutPower();
            t1 = System.nanoTime();
            if (fault) {
                disk.failReads(ReadFault.toFile(survivor.resolve("data")).range(32 << 10, 4096));
            }
            t2 = System.nanoTime();
            boolean failed;
            try {
                Files.readAllBytes(survivor.resolve("data"));
                failed = false;
            } catch (IOException e) {
                failed = true;
            }
            if (failed != fault) {
                throw new IllegalStateException("the survivor's read " + (failed ? "failed" : "did not fail"));
            }
            t3 = System.nanoTime();
        } finally {
            disk.close();
        }
        long t4 = System.nanoTime();
        return new double[] {(t1 - t0) / 1e9, (t2 - t1) / 1e9, (t3 - t2) / 1e9, (t4 - t3) / 1e9, (t4 - t0) / 1e9};
    }

    private static double median(List<double[]> rows, int column) {
        List<Double> v = new ArrayList<>();
        for (double[] r : rows) {
            v.add(r[column]);
        }
        Collections.sort(v);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}

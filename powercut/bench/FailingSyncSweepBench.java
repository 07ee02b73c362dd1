import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FaultPlan;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What a fault sweep costs (run by failing-sync-sweep.sh): for each model, one point per flush of a journal workload
 * (RECORDS records, each appended and fsynced; the directory synced at creation), each on a fresh disk, as
 * {@code @FailingSyncs(sweep = true)} runs them: disk made, flushes failing from the point on, the workload, a cut, the
 * survivor read and the acknowledged records checked, all undone. Prints the median and total per model.
 */
public final class FailingSyncSweepBench {

    public static void main(String[] args) throws Exception {
        int records = Integer.parseInt(args[0]);
        Path work = Path.of("/tmp", "flushcheck-sweep-bench-" + ProcessHandle.current().pid());
        for (DiskModel model : List.of(DiskModel.BLOCK, DiskModel.FILE)) {
            List<Double> seconds = new ArrayList<>();
            long lost = 0;
            long start = System.nanoTime();
            for (int k = 0; k <= records; k++) { // records + 1 flushes: the directory's, then one per record
                long t = System.nanoTime();
                lost += point(model, work.resolve(model + "-" + k), records, k);
                seconds.add((System.nanoTime() - t) / 1e9);
            }
            double total = (System.nanoTime() - start) / 1e9;
            Collections.sort(seconds);
            System.out.printf(Locale.ROOT, "%s: %d fault points of a %d-record journal in %.2f s: median %.3f s a point"
                    + " (min %.3f, max %.3f); acknowledged records lost: %d%n", model, seconds.size(), records, total,
                    seconds.get(seconds.size() / 2), seconds.get(0), seconds.get(seconds.size() - 1), lost);
        }
    }

    /** One fault point: the journal stops at its first failed sync; returns the acknowledged records lost (0). */
    private static int point(DiskModel model, Path work, int records, long after) throws IOException {
        try (SimulatedDisk disk = model == DiskModel.FILE ? SimulatedDisk.builder().model(DiskModel.FILE).create(work)
                : SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).create(work)) {
            disk.failFlushes(FaultPlan.flushesAfter(disk.flushes() + after));
            AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
            Path journal = disk.path().resolve("journal");
            try {
                Files.createFile(journal);
                try (FileChannel dir = FileChannel.open(disk.path(), StandardOpenOption.READ)) {
                    dir.force(true);
                }
                for (int i = 1; i <= records; i++) {
                    try (FileChannel ch = FileChannel.open(journal, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                        ch.write(ByteBuffer.wrap(("record " + i + "\n").getBytes(StandardCharsets.UTF_8)));
                        ch.force(true);
                    }
                    acks.add("record " + i);
                }
            } catch (IOException failedSync) {
                // stops: acknowledges nothing more
            }
            Path survivor = disk.cutPower().resolve("journal");
            return acks.lost(Files.exists(survivor) ? Files.readAllLines(survivor) : List.of()).size();
        }
    }
}

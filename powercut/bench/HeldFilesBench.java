import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.RepeatedPowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * A class of @RepeatedPowerCut invocations over a store that keeps its file open across the cut (and after
 * its invocation, as a cut leaves an embedded store open), on the block model and on the file model, and
 * the block model's class again with the store closed at the end of each invocation, alternated round by
 * round in one run (run by held-files-bench.sh): wall time per invocation (disk made, workload, cut, survivor
 * read, disk closed), and the loop devices of the run attached during a class and after it.
 */
public final class HeldFilesBench {

    /** The loop devices this run attached, as the kernel named them while they were attached. */
    static final List<String[]> DEVICES = new CopyOnWriteArrayList<>();
    static final List<RandomAccessFile> OPEN = new CopyOnWriteArrayList<>();
    static int peak;

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        List<Class<?>> classes = List.of(HeldOnBlock.class, HeldOnFiles.class, ClosedOnBlock.class);
        List<List<Double>> times = new ArrayList<>();
        List<int[]> loops = new ArrayList<>();
        for (int i = 0; i < classes.size(); i++) {
            times.add(new ArrayList<>());
            loops.add(new int[3]);
        }
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < classes.size(); c++) {
                int i = r % 2 == 0 ? c : classes.size() - 1 - c;
                DEVICES.clear();
                peak = 0;
                Events events = EngineTestKit.engine("junit-jupiter").selectors(selectClass(classes.get(i))).execute()
                        .testEvents();
                int afterClass = attached();
                closeHeld();
                int afterClose = attachedWithin(Duration.ofSeconds(10));
                if (events.failed().count() > 0 || events.succeeded().count() != INVOCATIONS) {
                    throw new IllegalStateException(classes.get(i).getSimpleName() + ": " + events.succeeded().count()
                            + " of " + INVOCATIONS + " invocations passed");
                }
                List<Event> started = events.started().list();
                List<Event> finished = events.finished().list();
                for (int k = 0; k < started.size(); k++) {
                    times.get(i).add(Duration.between(started.get(k).getTimestamp(), finished.get(k).getTimestamp())
                            .toNanos() / 1e9);
                }
                int[] l = loops.get(i);
                l[0] = Math.max(l[0], peak);
                l[1] = Math.max(l[1], afterClass);
                l[2] = Math.max(l[2], afterClose);
                System.err.printf(Locale.ROOT, "bench: round %d/%d, %s: %d invocations%n", r + 1, rounds,
                        classes.get(i).getSimpleName(), started.size());
            }
        }
        double fileMedian = median(times.get(1));
        String[] what = {"block model, store left open", "file model, store left open ",
                "block model, store closed    "};
        for (int i = 0; i < classes.size(); i++) {
            List<Double> t = times.get(i);
            int[] l = loops.get(i);
            System.out.printf(Locale.ROOT, "%s: %d invocations, median %.1f ms, mean %.1f ms, max %.1f ms (%.2fx the"
                            + " file model's median); loop devices of the run attached: at most %d during a class, %d"
                            + " after it with its last files open, %d once they are closed%n", what[i], t.size(),
                    median(t) * 1e3, t.stream().mapToDouble(Double::doubleValue).average().orElse(0) * 1e3,
                    Collections.max(t) * 1e3, median(t) / fileMedian, l[0], l[1], l[2]);
        }
    }

    static final int INVOCATIONS = 20;

    /** Appends six synced records to a file it leaves open, cuts, reads the survivor and leaves that open too. */
    @SimulatedPowerLoss(sizeMiB = 32)
    public static class HeldOnBlock {
        @RepeatedPowerCut(times = INVOCATIONS, seed = 7)
        void storeLeftOpen(SimulatedDisk disk) throws IOException {
            closeHeld(); // the last invocation's, long after its disk closed, as a program ends after its disk
            note(disk.loopDevice());
            RandomAccessFile store = new RandomAccessFile(disk.path().resolve("store").toFile(), "rw");
            OPEN.add(store);
            int acknowledged = append(store);
            Path survivor = disk.cutPower();
            note(deviceAt(survivor));
            Path kept = survivor.resolve("store");
            if (Files.exists(kept)) {
                OPEN.add(new RandomAccessFile(kept.toFile(), "r"));
            }
            check(kept, acknowledged);
            peak = Math.max(peak, attached());
            if (keepsOpen()) {
                return;
            }
            closeHeld();
        }

        boolean keepsOpen() {
            return true;
        }
    }

    @SimulatedPowerLoss(model = DiskModel.FILE)
    public static class HeldOnFiles extends HeldOnBlock {
    }

    @SimulatedPowerLoss(sizeMiB = 32)
    public static class ClosedOnBlock extends HeldOnBlock {
        @Override
        boolean keepsOpen() {
            return false;
        }
    }

    static int append(RandomAccessFile store) {
        int acknowledged = 0;
        for (int i = 1; i <= 6; i++) {
            try {
                store.write(("record " + i + "\n").getBytes(StandardCharsets.UTF_8));
                store.getFD().sync();
                acknowledged++;
            } catch (IOException powerGone) {
                break;
            }
        }
        return acknowledged;
    }

    static void check(Path kept, int acknowledged) throws IOException {
        int survived = Files.exists(kept) ? Files.readAllLines(kept).size() : 0;
        if (survived < acknowledged) {
            throw new AssertionError(acknowledged + " records acknowledged, " + survived + " survived");
        }
    }

    static void closeHeld() throws IOException {
        for (RandomAccessFile f : OPEN) {
            f.close();
        }
        OPEN.clear();
    }

    /** The device mounted at {@code mountPoint}, from this process's mount table; null on the file model. */
    static String deviceAt(Path mountPoint) throws IOException {
        String found = null;
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            int dash = line.indexOf(" - ");
            if (f.length > 4 && f[4].equals(mountPoint.toString()) && dash > 0) {
                found = line.substring(dash + 3).split(" ")[1];
            }
        }
        return found != null && found.startsWith("/dev/loop") ? found : null;
    }

    static void note(String device) throws IOException {
        if (device != null) {
            DEVICES.add(listed(device));
        }
    }

    /**
     * {name, backing file}: the file as sysfs names it, less the " (deleted)" of one deleted since; an empty file
     * when the device is free. Read from sysfs, not by a process: it is read in the invocations it times.
     */
    static String[] listed(String device) {
        try {
            Path sys = Path.of("/sys/block", Path.of(device).getFileName().toString(), "loop", "backing_file");
            return new String[] {device, Files.readString(sys).trim().replaceFirst(" \\(deleted\\)$", "")};
        } catch (IOException free) {
            return new String[] {device, ""};
        }
    }

    /**
     * How many of the run's devices still map a file they mapped: by its path, or from its filesystem's root once
     * that (the drive's mount) has gone; each device counted once.
     */
    static int attached() {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (String[] d : DEVICES) {
            String now = listed(d[0])[1];
            if (!now.isEmpty() && (now.equals(d[1]) || now.startsWith("/") && d[1].endsWith(now))) {
                names.add(d[0]);
            }
        }
        return names.size();
    }

    static int attachedWithin(Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        int n;
        while ((n = attached()) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return n;
    }

    static double median(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        Collections.sort(s);
        return s.isEmpty() ? 0 : s.get(s.size() / 2);
    }
}

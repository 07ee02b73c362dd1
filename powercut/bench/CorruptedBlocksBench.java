import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.flushcheck.powercut.BlockDamage;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.CorruptedBlocks;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.ReadBack;
import io.flushcheck.powercut.RepeatedPowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * A sweep of damaged blocks against the same number of power cuts, side by side in one run (run by
 * corrupted-blocks-bench.sh): SQLite in WAL mode with synchronous FULL and no checkpoint, COMMITS one-row commits,
 * under {@code @CorruptedBlocks} (every block of what the workload left, one sweep per kind given, up to INVOCATIONS
 * invocations each) and under {@code @RepeatedPowerCut} with as many invocations, each invocation a fresh disk, on the
 * models given. Prints the invocations run, their time, invocations a second, and each sweep's outcomes (what the
 * reader of the table returned against what was acknowledged; aborted: the invocation could not be done, with its
 * first reason); progress on stderr. Printed, not asserted.
 */
public final class CorruptedBlocksBench {

    static int commits = 100;
    static final Map<ReadBack.Outcome, AtomicInteger> OUTCOMES = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        commits = Integer.parseInt(args[0]);
        String models = args[1];
        List<BlockDamage> kinds = new ArrayList<>();
        for (String k : args[2].split(",")) {
            kinds.add(BlockDamage.ofOption(k.trim()));
        }
        for (String model : models.split(",")) {
            boolean file = model.trim().equalsIgnoreCase("file");
            String name = (file ? "FILE" : "BLOCK") + " model, SQLite WAL+FULL, " + commits + " one-row commits";
            Class<?> damaging = file ? Fixtures.DamagedOnFiles.class : Fixtures.DamagedOnExt4.class;
            StringBuilder lines = new StringBuilder();
            double invocations = 0;
            double seconds = 0;
            for (BlockDamage kind : kinds) {
                OUTCOMES.clear();
                double[] damaged = run(selectMethod(damaging, method(kind), SimulatedDisk.class.getName()),
                        name + ", " + kind.words());
                invocations += damaged[0];
                seconds += damaged[1];
                lines.append(String.format(Locale.ROOT, "   damaged blocks (%s): %.0f invocations in %.1f s, %.1f/s (load"
                        + " %s); %.0f aborted%s; outcomes %s%n", kind.words(), damaged[0], damaged[1],
                        damaged[0] / damaged[1], loadOf(damaged), damaged[3], ABORTED.isEmpty() ? "" : " (" + ABORTED
                        + ")", new TreeMap<>(OUTCOMES)));
            }
            double[] cut = run(selectClass(file ? Fixtures.CutOnFiles.class : Fixtures.CutOnExt4.class), name + ", power cuts");
            System.out.printf(Locale.ROOT, "%s:%n%s   all kinds: %.0f invocations in %.1f s, %.1f/s%n   power cuts: %.0f"
                    + " invocations in %.1f s, %.1f/s (load %s)%n   a damaged block costs %.2fx a power cut%n", name, lines,
                    invocations, seconds, invocations / seconds, cut[0], cut[1], cut[0] / cut[1], loadOf(cut),
                    (seconds / invocations) / (cut[1] / cut[0]));
        }
    }

    /** The fixture method that sweeps {@code kind}: {@code LOST_WRITE} is {@code lostWrite}. */
    private static String method(BlockDamage kind) {
        String[] words = kind.name().toLowerCase(Locale.ROOT).split("_");
        StringBuilder m = new StringBuilder(words[0]);
        for (int i = 1; i < words.length; i++) {
            m.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
        }
        return m.toString();
    }

    /** The first reason an invocation of the last run aborted with, or empty. */
    private static String ABORTED = "";

    private static final List<String> LOADS = new ArrayList<>();

    private static String loadOf(double[] r) {
        return LOADS.get((int) r[2]);
    }

    /** Runs a fixture; {invocations, seconds, index of its load, invocations aborted}. */
    private static double[] run(DiscoverySelector fixture, String name) throws Exception {
        String load = Files.readString(Path.of("/proc/loadavg")).split(" (?=\\d+/)")[0];
        AtomicInteger done = new AtomicInteger();
        long t0 = System.nanoTime();
        Events events = EngineTestKit.engine("junit-jupiter").selectors(fixture)
                .execute().testEvents();
        ABORTED = events.aborted().list().stream().findFirst().flatMap(e -> e.getPayload(
                org.junit.platform.engine.TestExecutionResult.class)).flatMap(
                org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::getMessage).orElse("");
        double seconds = (System.nanoTime() - t0) / 1e9;
        long failed = events.failed().count();
        if (failed > 0) {
            System.err.println("bench: " + name + ": " + failed + " invocations failed, the first: "
                    + events.failed().list().get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                    .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable).map(Throwable::toString).orElse("?"));
        }
        done.set((int) events.finished().count());
        synchronized (LOADS) {
            LOADS.add(load);
            return new double[] {done.get(), seconds, LOADS.size() - 1, events.aborted().count()};
        }
    }

    /** COMMITS one-row commits in WAL mode, synchronous FULL, no checkpoint; each noted once it returns. */
    static void commit(SimulatedDisk disk, AcknowledgedRecords acknowledged) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + disk.path().resolve("app.db"));
             Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=FULL");
            s.execute("PRAGMA wal_autocheckpoint=0");
            s.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO t(v) VALUES (?)")) {
                for (int i = 0; i < commits; i++) {
                    p.setString(1, "row " + i);
                    p.executeUpdate();
                    acknowledged.add("row " + i);
                }
            }
            progress();
        }
    }

    static List<String> rows(Path survivor) throws Exception {
        List<String> rows = new ArrayList<>();
        if (!Files.exists(survivor.resolve("app.db"))) {
            return rows; // cut before the database was created
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + survivor.resolve("app.db"));
             Statement s = c.createStatement()) {
            try (ResultSet t = s.executeQuery("SELECT count(*) FROM sqlite_master WHERE name = 't'")) {
                if (!t.next() || t.getInt(1) == 0) {
                    return rows; // cut before the table's creation was durable
                }
            }
            try (ResultSet r = s.executeQuery("SELECT v FROM t ORDER BY id")) {
                while (r.next()) {
                    rows.add(r.getString(1));
                }
            }
        }
        return rows;
    }

    private static final AtomicInteger RUNS = new AtomicInteger();

    private static void progress() {
        int n = RUNS.incrementAndGet();
        if (n % 25 == 0) {
            System.err.printf(Locale.ROOT, "bench: %d invocations%n", n);
        }
    }

    public static class Fixtures {

        static void damaged(SimulatedDisk disk) throws Exception {
            AcknowledgedRecords acks = disk.untilPowerCut(a -> commit(disk, a));
            Path survivor = disk.cutPower();
            ReadBack r = acks.readBack(() -> rows(survivor));
            OUTCOMES.computeIfAbsent(r.outcome(), k -> new AtomicInteger()).incrementAndGet();
        }

        static void cut(SimulatedDisk disk) throws Exception {
            AcknowledgedRecords acks = disk.untilPowerCut(a -> commit(disk, a));
            acks.assertDurable(rows(disk.cutPower()));
        }

        /** One sweep a kind of damage; the models' classes below say the disk it runs on. */
        public abstract static class Damaged {
            @CorruptedBlocks(kinds = BlockDamage.BIT_ROT, times = 241)
            void bitRot(SimulatedDisk disk) throws Exception {
                damaged(disk);
            }

            @CorruptedBlocks(kinds = BlockDamage.ZEROED, times = 241)
            void zeroed(SimulatedDisk disk) throws Exception {
                damaged(disk);
            }

            @CorruptedBlocks(kinds = BlockDamage.LOST_WRITE, times = 241)
            void lostWrite(SimulatedDisk disk) throws Exception {
                damaged(disk);
            }

            @CorruptedBlocks(kinds = BlockDamage.MISDIRECTED_WRITE, times = 241)
            void misdirectedWrite(SimulatedDisk disk) throws Exception {
                damaged(disk);
            }

            @CorruptedBlocks(kinds = BlockDamage.BAD_SECTOR, times = 241)
            void badSector(SimulatedDisk disk) throws Exception {
                damaged(disk);
            }

            @CorruptedBlocks(kinds = BlockDamage.TRANSIENT_READ, times = 241)
            void transientRead(SimulatedDisk disk) throws Exception {
                damaged(disk);
            }
        }

        /** As many power cuts as a sweep of damaged blocks has invocations. */
        public abstract static class Cut {
            @RepeatedPowerCut(times = 241)
            void sweep(SimulatedDisk disk) throws Exception {
                cut(disk);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE, sizeMiB = 64)
        public static class DamagedOnFiles extends Damaged {
        }

        @SimulatedPowerLoss(model = DiskModel.FILE, sizeMiB = 64)
        public static class CutOnFiles extends Cut {
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 32, mkfsOptions = {"-b", "4096"})
        public static class DamagedOnExt4 extends Damaged {
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 32, mkfsOptions = {"-b", "4096"})
        public static class CutOnExt4 extends Cut {
        }
    }
}

package io.flushcheck.powercut;

import io.flushcheck.testing.LoopbackHttp;
import java.io.IOException;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The workloads on which the file model's default rules are held to ext4, each with what a cut after each of its
 * acknowledgements keeps: the specification. {@link Ext4AgreementTests} verifies it on ext4 (root), and
 * {@link FileRulesAgreementTests} on the file model, as root and as nobody, where no ext4 can be made.
 */
final class AgreementCorpus {

    /** The crash points: a cut after acknowledgement 1, 2, ..., {@code STEPS}. */
    static final int STEPS = 3;

    private AgreementCorpus() {
    }

    /** A workload: {@code steps} acknowledgements on {@code dir}; then whether {@code survivor} kept all of them. */
    interface Workload {
        /** Returns what must stay open until the power goes (a connection, a server), closed after the cut. */
        AutoCloseable run(SimulatedDisk disk, int steps) throws Exception;

        boolean kept(Path survivor, int steps) throws Exception;
    }

    /**
     * A workload and what a cut after each acknowledgement does to it, point by point: {@code kept} (everything
     * acknowledged survived) or {@code lost}.
     */
    record Case(String name, Workload workload, List<String> expected) {
        Case(String name, Workload workload, String expected) {
            this(name, workload, List.of(expected.split(" ")));
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case("SyncedJournal", JOURNAL, "kept kept kept"),
                new Case("rename store with the directory's fsync", renameStore(true), "kept kept kept"),
                // The last rename has no sync after it; the next value's fsync would have committed it, as on ext4.
                new Case("rename store without the directory's fsync", renameStore(false), "lost lost lost"),
                new Case("store in a directory it created, its files fsynced", OWN_DIRECTORY, "kept kept kept"),
                new Case("SQLite WAL, synchronous FULL", sqlite("WAL", "FULL"), "kept kept kept"),
                // SQLite deletes the rollback journal at commit without syncing its directory (EXTRA does): the cut
                // leaves a hot journal, and the next open rolls the last commit back, on ext4 as documented.
                new Case("SQLite DELETE, synchronous FULL", sqlite("DELETE", "FULL"), "lost lost lost"),
                new Case("SQLite DELETE, synchronous EXTRA", sqlite("DELETE", "EXTRA"), "kept kept kept"),
                new Case("key-value server (python3) in a directory it created", SERVER, "kept kept kept"));
    }

    /**
     * A workload that rewrites or extends a file it never syncs, beside a store it syncs, and a check that holds in
     * every state a page-cache filesystem can leave: {@link Ext4AgreementTests} sees every crash state of one run
     * pass it on ext4, {@link FileRulesAgreementTests} on the file model, under each rule.
     */
    record StateCase(String name, PageWorkload workload, CrashStates.Verification check) {
    }

    /** A workload on the directory {@code dir}, noting what it acknowledges. */
    interface PageWorkload {
        void run(Path dir, AcknowledgedRecords acknowledged) throws Exception;
    }

    static List<StateCase> stateCases() {
        return List.of(
                new StateCase("a header and a heartbeat written in place, another file synced", HEADER,
                        AgreementCorpus::headerKept),
                new StateCase("eight-byte records appended a byte a write", BYTE_RECORDS,
                        AgreementCorpus::byteRecordsKept),
                new StateCase("a file extended by setLength, then written", EXTENDED, AgreementCorpus::extendedKept),
                new StateCase("a heartbeat rewritten many times between syncs", HEARTBEAT,
                        AgreementCorpus::heartbeatKept),
                new StateCase("a synced file truncated, then set longer, another file synced after each",
                        TRUNCATED, AgreementCorpus::truncatedKept),
                new StateCase("a synced file truncated to 0, rewritten and closed, another file synced",
                        REWRITTEN, AgreementCorpus::replacedKept),
                new StateCase("a file written, closed and renamed over a synced one, another file synced",
                        RENAMED_OVER, AgreementCorpus::replacedKept));
    }

    /**
     * The state cases only a journaled filesystem passes: the POSIX rules make a file's size durable at its own
     * sync alone, and may lose what these acknowledge.
     */
    static boolean journaledOnly(StateCase c) {
        return c.workload() == TRUNCATED;
    }

    /**
     * The state cases ext4 passes by writing a file early (auto_da_alloc) where other filesystems need not: the file
     * model, under either rule, may lose what they acknowledge, and says that ext4 would have kept it.
     */
    static boolean ext4WritesEarly(StateCase c) {
        return c.workload() == REWRITTEN || c.workload() == RENAMED_OVER;
    }

    /**
     * The states of {@code c}'s run on {@code disk} that failed its check, with what each lost and, in brackets, the
     * explanation of those it explains; empty when none.
     */
    static List<String> failingStates(StateCase c, SimulatedDisk disk) throws Exception {
        CrashStateReport report = disk.recordCrashStates(acks -> c.workload().run(disk.path(), acks))
                .check(5000, c.check());
        if (report.checked() == 0 || report.leftOut() > 0) {
            throw new AssertionError(c.name() + ": every state checked, not " + report);
        }
        List<String> failing = new ArrayList<>();
        for (CrashStateReport.Failure f : report.failures()) {
            failing.add(f.state() + ": " + f.message() + (f.explanation().isEmpty() ? ""
                    : " [" + String.join("; ", f.explanation()) + "]"));
        }
        return failing;
    }

    /** Appends {@code record} and a newline to {@code dir}'s log, syncs it and the directory: a store's commit. */
    private static void commit(Path dir, String record) throws IOException {
        try (FileChannel ch = FileChannel.open(dir.resolve("log"), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap((record + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        sync(dir);
    }

    private static void logKept(Path survivor, List<String> mustSurvive) throws IOException {
        Path log = survivor.resolve("log");
        List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
        if (!lines.containsAll(mustSurvive)) {
            throw new AssertionError("log holds " + lines + ", not every one of " + mustSurvive);
        }
    }

    private static final byte[] MAGIC = "MAGICMAG".getBytes(StandardCharsets.US_ASCII);

    /** A lock file's header and heartbeat, written in place in its first 16 bytes and never synced; a commit. */
    private static final PageWorkload HEADER = (dir, acks) -> {
        for (int i = 1; i <= STEPS; i++) {
            try (FileChannel lock = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE)) {
                lock.write(ByteBuffer.wrap(MAGIC), 0);
                lock.write(ByteBuffer.wrap(("HEARTBT" + i).getBytes(StandardCharsets.US_ASCII)), 8);
            }
            commit(dir, "record " + i);
            acks.add("record " + i);
        }
    };

    /** The lock file is empty or starts with its header: its heartbeat was written after it, in the same page. */
    private static void headerKept(Path survivor, List<String> mustSurvive) throws IOException {
        logKept(survivor, mustSurvive);
        Path lock = survivor.resolve("lock");
        byte[] b = Files.exists(lock) ? Files.readAllBytes(lock) : new byte[0];
        if (b.length > 0 && !java.util.Arrays.equals(b, 0, Math.min(b.length, MAGIC.length), MAGIC, 0,
                Math.min(b.length, MAGIC.length))) {
            throw new AssertionError("lock's header is lost: it holds " + printable(b));
        }
    }

    /** Record i of the byte-appended file: every byte set, so that a byte lost shows. */
    private static long record(int i) {
        return 0x1122334455667700L + i;
    }

    /** {@code 4 * STEPS} records of 8 bytes each, appended with RandomAccessFile.writeLong (a write(2) a byte). */
    private static final PageWorkload BYTE_RECORDS = (dir, acks) -> {
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(dir.resolve("records").toFile(), "rw")) {
            for (int i = 1; i <= STEPS; i++) {
                for (int j = 0; j < 4; j++) {
                    raf.writeLong(record(4 * (i - 1) + j));
                }
                commit(dir, "record " + i);
                acks.add("record " + i);
            }
        }
    };

    /** The records file holds a prefix of the bytes appended: a page keeps its writes up to one moment. */
    private static void byteRecordsKept(Path survivor, List<String> mustSurvive) throws IOException {
        logKept(survivor, mustSurvive);
        Path records = survivor.resolve("records");
        byte[] b = Files.exists(records) ? Files.readAllBytes(records) : new byte[0];
        ByteBuffer all = ByteBuffer.allocate(4 * STEPS * 8);
        for (int i = 0; i < 4 * STEPS; i++) {
            all.putLong(record(i));
        }
        if (b.length > all.capacity() || !java.util.Arrays.equals(b, 0, b.length, all.array(), 0, b.length)) {
            throw new AssertionError("records holds no prefix of what was appended: " + printable(b));
        }
    }

    /** The size a file is extended to, at once, with setLength: three slots of a page each. */
    private static final long EXTENDED_SIZE = 3 * 4096;

    /** A file extended by setLength (ftruncate), then a record written into slot i at each step, never synced. */
    private static final PageWorkload EXTENDED = (dir, acks) -> {
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(dir.resolve("slots").toFile(), "rw")) {
            raf.setLength(EXTENDED_SIZE);
            for (int i = 1; i <= STEPS; i++) {
                raf.seek((i - 1) * 4096L);
                raf.write(("slot " + i).getBytes(StandardCharsets.US_ASCII));
                commit(dir, "record " + i);
                acks.add("record " + i);
            }
        }
    };

    /** The file is empty or has the size set, each slot zeros or its record: a size set is journaled at once. */
    private static void extendedKept(Path survivor, List<String> mustSurvive) throws IOException {
        logKept(survivor, mustSurvive);
        Path slots = survivor.resolve("slots");
        byte[] b = Files.exists(slots) ? Files.readAllBytes(slots) : new byte[0];
        if (b.length != 0 && b.length != EXTENDED_SIZE) {
            throw new AssertionError("slots holds " + b.length + " bytes, neither 0 nor the " + EXTENDED_SIZE + " set");
        }
        for (int i = 1; i <= STEPS && b.length > 0; i++) {
            byte[] slot = ("slot " + i).getBytes(StandardCharsets.US_ASCII);
            int at = (i - 1) * 4096;
            boolean zeros = true;
            for (int j = 0; j < slot.length; j++) {
                zeros &= b[at + j] == 0;
            }
            if (!zeros && !java.util.Arrays.equals(b, at, at + slot.length, slot, 0, slot.length)) {
                throw new AssertionError("slot " + i + " holds neither zeros nor its record");
            }
        }
    }

    /** Beats between two commits: each a stamp, then a count, in two writes to the first page. */
    private static final int BEATS = 40;

    /** A heartbeat file rewritten in place {@code BEATS} times between commits: "S000001" at 0, ";000001" at 7. */
    private static final PageWorkload HEARTBEAT = (dir, acks) -> {
        try (FileChannel beat = FileChannel.open(dir.resolve("heartbeat"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            int n = 0;
            for (int i = 1; i <= STEPS; i++) {
                for (int j = 0; j < BEATS; j++) {
                    n++;
                    beat.write(ByteBuffer.wrap(String.format("S%06d", n).getBytes(StandardCharsets.US_ASCII)), 0);
                    beat.write(ByteBuffer.wrap(String.format(";%06d", n).getBytes(StandardCharsets.US_ASCII)), 7);
                }
                commit(dir, "record " + i);
                acks.add("record " + i);
            }
        }
    };

    /** The count never runs ahead of the stamp: it was written after it, in the same page. */
    private static void heartbeatKept(Path survivor, List<String> mustSurvive) throws IOException {
        logKept(survivor, mustSurvive);
        Path beat = survivor.resolve("heartbeat");
        String s = Files.exists(beat) ? Files.readString(beat, StandardCharsets.ISO_8859_1) : "";
        if (s.isEmpty() || s.matches("S\\d{6}")) {
            return;
        }
        if (!s.matches("S\\d{6};\\d{6}")) {
            throw new AssertionError("heartbeat holds " + printable(s.getBytes(StandardCharsets.ISO_8859_1)));
        }
        int stamp = Integer.parseInt(s.substring(1, 7));
        int count = Integer.parseInt(s.substring(8));
        if (count != stamp && count != stamp - 1) {
            throw new AssertionError("heartbeat's count " + count + " is neither its stamp's " + stamp
                    + " nor the one before");
        }
    }

    /** The bytes the truncated file is written with, synced, before it is truncated. */
    private static final int TRUNCATED_WRITTEN = 8192;
    private static final int TRUNCATED_TO = 100;
    private static final int TRUNCATED_GROWN = 12288;

    private static byte truncatedByte(int i) {
        return (byte) ('a' + i % 26);
    }

    /**
     * A file written and synced (8 KiB), truncated to 100 bytes and then set to 12 KiB, never synced again;
     * after each size change another file and the directory are synced, which on ext4 commits the journal and
     * with it the size: acknowledged "truncated", then "grown".
     */
    private static final PageWorkload TRUNCATED = (dir, acks) -> {
        byte[] data = new byte[TRUNCATED_WRITTEN];
        for (int i = 0; i < data.length; i++) {
            data[i] = truncatedByte(i);
        }
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(dir.resolve("sized").toFile(), "rw")) {
            raf.write(data);
            raf.getFD().sync();
            commit(dir, "written");
            acks.add("written");
            raf.setLength(TRUNCATED_TO);
            commit(dir, "truncated");
            acks.add("truncated");
            raf.setLength(TRUNCATED_GROWN);
            commit(dir, "grown");
            acks.add("grown");
        }
    };

    /**
     * Once "truncated" is acknowledged the file is 100 bytes long (or 12 KiB, the later size kept too), once
     * "grown" is, 12 KiB: its first 100 bytes those written, the rest zeros or (at the old size) those written.
     */
    private static void truncatedKept(Path survivor, List<String> mustSurvive) throws IOException {
        logKept(survivor, mustSurvive);
        Path sized = survivor.resolve("sized");
        byte[] b = Files.exists(sized) ? Files.readAllBytes(sized) : new byte[0];
        List<Integer> sizes = mustSurvive.contains("grown") ? List.of(TRUNCATED_GROWN)
                : mustSurvive.contains("truncated") ? List.of(TRUNCATED_TO, TRUNCATED_GROWN)
                : mustSurvive.contains("written") ? List.of(TRUNCATED_WRITTEN, TRUNCATED_TO, TRUNCATED_GROWN)
                : null;
        if (sizes != null && !sizes.contains(b.length)) {
            throw new AssertionError("sized holds " + b.length + " bytes, not one of " + sizes + " after "
                    + mustSurvive);
        }
        // Before the new size is committed, ext4 may have zeroed the cut part of the page it falls in already.
        int written = b.length == TRUNCATED_GROWN ? TRUNCATED_TO : b.length;
        for (int i = 0; i < b.length; i++) {
            byte want = i < written ? truncatedByte(i) : 0;
            if (b[i] != want && (sizes != null && i < TRUNCATED_TO || b[i] != 0)) {
                throw new AssertionError("sized's byte " + i + " of " + b.length + " is " + b[i] + ", not " + want);
            }
        }
    }

    private static final byte[] OLD_CONTENTS = "old contents, synced\n".repeat(300).getBytes(StandardCharsets.UTF_8);
    private static final byte[] NEW_CONTENTS = "new contents, never synced\n".repeat(300).getBytes(StandardCharsets.UTF_8);

    /**
     * A file written and synced, then truncated to 0 by its open, written again and closed without a sync, the way
     * an editor or a configuration writer replaces a file; another file and the directory synced after it.
     */
    private static final PageWorkload REWRITTEN = (dir, acks) -> {
        Files.write(dir.resolve("config"), OLD_CONTENTS);
        sync(dir.resolve("config"));
        commit(dir, "written");
        acks.add("written");
        Files.write(dir.resolve("config"), NEW_CONTENTS);
        commit(dir, "replaced");
        acks.add("replaced");
    };

    /** A new file written and closed without a sync, then renamed over a synced one; another file synced after. */
    private static final PageWorkload RENAMED_OVER = (dir, acks) -> {
        Files.write(dir.resolve("config"), OLD_CONTENTS);
        sync(dir.resolve("config"));
        commit(dir, "written");
        acks.add("written");
        Files.write(dir.resolve("config.tmp"), NEW_CONTENTS);
        Files.move(dir.resolve("config.tmp"), dir.resolve("config"), StandardCopyOption.ATOMIC_MOVE);
        commit(dir, "replaced");
        acks.add("replaced");
    };

    /**
     * The log holds what was acknowledged; once "written" is, config holds the old or the new contents, whole, or nothing (its truncation
     * committed before the new data was written, as ext4's periodic commit may); once "replaced", the new: ext4
     * writes the file at its close after the truncation to 0, or at the rename over config, and the sync after commits
     * it (auto_da_alloc).
     */
    private static void replacedKept(Path survivor, List<String> mustSurvive) throws IOException {
        logKept(survivor, mustSurvive);
        Path config = survivor.resolve("config");
        byte[] b = Files.exists(config) ? Files.readAllBytes(config) : null;
        boolean isOld = b != null && java.util.Arrays.equals(b, OLD_CONTENTS);
        boolean isNew = b != null && java.util.Arrays.equals(b, NEW_CONTENTS);
        String held = b == null ? "nothing (missing)" : isOld ? "the old contents" : isNew ? "the new contents"
                : b.length + " bytes, neither contents whole";
        if (mustSurvive.contains("replaced") && !isNew) {
            throw new AssertionError("config holds " + held + " after " + mustSurvive);
        }
        if (mustSurvive.contains("written") && !isOld && !isNew && !(b != null && b.length == 0)) {
            throw new AssertionError("config holds " + held + " after " + mustSurvive);
        }
    }

    private static String printable(byte[] b) {
        StringBuilder out = new StringBuilder("\"");
        for (byte x : b) {
            out.append(x >= 0x20 && x < 0x7f ? String.valueOf((char) x) : String.format("\\x%02x", x & 0xff));
        }
        return out.append('"').toString();
    }

    /** What {@code c} kept, cut after each of its acknowledgements, each time on a fresh disk of {@code disks}. */
    static List<String> outcomes(Case c, DiskFactory disks) throws Exception {
        List<String> out = new ArrayList<>();
        for (int steps = 1; steps <= STEPS; steps++) {
            try (SimulatedDisk disk = disks.make()) {
                boolean kept;
                try (AutoCloseable open = c.workload().run(disk, steps)) {
                    Path survivor = disk.cutPower();
                    kept = c.workload().kept(survivor, steps);
                }
                out.add(kept ? "kept" : "lost");
            }
        }
        return out;
    }

    /** Makes a fresh disk for each crash point. */
    interface DiskFactory {
        SimulatedDisk make() throws IOException;
    }

    private static final AutoCloseable NOTHING_OPEN = () -> { };

    private static void sync(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static Workload renameStore(boolean dirSync) {
        return new Workload() {
            @Override
            public AutoCloseable run(SimulatedDisk disk, int steps) throws IOException {
                Path dir = disk.path();
                for (int i = 1; i <= steps; i++) {
                    Path t = dir.resolve("value.tmp");
                    try (FileChannel ch = FileChannel.open(t, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING)) {
                        ch.write(ByteBuffer.wrap(("value " + i).getBytes(StandardCharsets.UTF_8)));
                        ch.force(true);
                    }
                    Files.move(t, dir.resolve("value"), StandardCopyOption.ATOMIC_MOVE);
                    if (dirSync) {
                        sync(dir);
                    }
                }
                return NOTHING_OPEN;
            }

            @Override
            public boolean kept(Path survivor, int steps) throws IOException {
                Path v = survivor.resolve("value");
                return Files.exists(v) && Files.readString(v).equals("value " + steps);
            }
        };
    }

    private static final Workload JOURNAL = new Workload() {
        @Override
        public AutoCloseable run(SimulatedDisk disk, int steps) throws IOException {
            SyncedJournal j = SyncedJournal.create(disk.path().resolve("journal"), false);
            for (int i = 1; i <= steps; i++) {
                j.append("record " + i);
            }
            return NOTHING_OPEN;
        }

        @Override
        public boolean kept(Path survivor, int steps) throws IOException {
            return SyncedJournal.read(survivor.resolve("journal")).size() == steps;
        }
    };

    /** A store that makes its own directory (Files.createDirectories) and fsyncs only its files, as HSQLDB does. */
    static final Workload OWN_DIRECTORY = new Workload() {
        @Override
        public AutoCloseable run(SimulatedDisk disk, int steps) throws IOException {
            Path data = Files.createDirectories(disk.path().resolve("db/data"));
            for (int i = 1; i <= steps; i++) {
                try (FileChannel ch = FileChannel.open(data.resolve("log"), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                    ch.write(ByteBuffer.wrap(("record " + i + "\n").getBytes(StandardCharsets.UTF_8)));
                    ch.force(true);
                }
            }
            return NOTHING_OPEN;
        }

        @Override
        public boolean kept(Path survivor, int steps) throws IOException {
            Path log = survivor.resolve("db/data/log");
            return Files.exists(log) && Files.readAllLines(log).size() == steps;
        }
    };

    /** SQLite through sqlite-jdbc: a table, then one row a commit; the connection is open when the power goes. */
    private static Workload sqlite(String journalMode, String synchronous) {
        return new Workload() {
            @Override
            public AutoCloseable run(SimulatedDisk disk, int steps) throws SQLException {
                Connection c = DriverManager.getConnection("jdbc:sqlite:" + disk.path().resolve("app.db"));
                try (Statement s = c.createStatement()) {
                    s.execute("PRAGMA journal_mode=" + journalMode);
                    s.execute("PRAGMA synchronous=" + synchronous);
                    s.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
                    for (int i = 1; i <= steps; i++) {
                        s.executeUpdate("INSERT INTO t (v) VALUES ('row " + i + "')");
                    }
                } catch (SQLException e) {
                    c.close();
                    throw e;
                }
                // Closed after the cut, on a drive without power: what it writes then is discarded.
                return () -> {
                    try {
                        c.close();
                    } catch (SQLException ignored) {
                        // what survived is what counts
                    }
                };
            }

            @Override
            public boolean kept(Path survivor, int steps) throws SQLException {
                try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + survivor.resolve("app.db"));
                     Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                    return rs.next() && rs.getLong(1) == steps;
                } catch (SQLException e) {
                    if (String.valueOf(e.getMessage()).contains("no such table")) {
                        return false;
                    }
                    throw e;
                }
            }
        };
    }

    /** Debian's python3: readable by nobody, unlike a user's pyenv. */
    static final String PYTHON = "/usr/bin/python3";

    /**
     * {@code kvserver.py}, a real program in its own process on the disk, its world killed by the cut; each PUT
     * is an acknowledgement once its 204 has come back, each on a connection of its own ({@link LoopbackHttp}).
     */
    private static final Workload SERVER = new Workload() {
        @Override
        public AutoCloseable run(SimulatedDisk disk, int steps) throws Exception {
            // Copied out of the class path, which is a jar when junit6/ runs these tests.
            Path script = Files.createTempFile("kvserver", ".py");
            Path err = Files.createTempFile("kvserver", ".err");
            try (InputStream in = AgreementCorpus.class.getResourceAsStream("kvserver.py")) {
                Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
            }
            ProcessWorld server = disk.start(new ProcessBuilder(PYTHON, script.toString(), disk.path().toString())
                    .redirectError(err.toFile()));
            try {
                String port = new BufferedReader(new InputStreamReader(server.process().getInputStream(),
                        StandardCharsets.US_ASCII)).readLine();
                if (port == null) {
                    throw new IOException("kvserver.py ended before it listened: " + Files.readString(err));
                }
                LoopbackHttp http = new LoopbackHttp(Integer.parseInt(port), Duration.ofSeconds(60));
                for (int i = 1; i <= steps; i++) {
                    LoopbackHttp.Response r = http.send("PUT", "/k" + i, "value " + i);
                    if (r.status() != 204) {
                        throw new IOException("kvserver.py answered PUT " + i + " with " + r.status() + ": " + r.body());
                    }
                }
            } catch (Exception e) {
                server.close();
                Files.delete(script);
                Files.delete(err);
                throw e;
            }
            return () -> {
                server.close();
                Files.delete(script);
                Files.delete(err);
            };
        }

        @Override
        public boolean kept(Path survivor, int steps) throws IOException {
            Path log = survivor.resolve("server/data/log");
            return Files.exists(log) && Files.readAllLines(log).size() == steps;
        }
    };
}

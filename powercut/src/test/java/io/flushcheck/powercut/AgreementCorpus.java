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

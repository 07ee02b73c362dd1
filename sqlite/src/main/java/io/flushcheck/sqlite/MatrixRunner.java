package io.flushcheck.sqlite;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.DeviceCounters;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.NativeCallException;
import io.flushcheck.probe.OwnFiles;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbeLock;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the cells of a {@link MatrixOptions} in one directory. Its databases are {@link OwnFiles}: PID in
 * the name, created 0600 by flushcheck before SQLite opens them, removed with their -journal, -wal and
 * -shm in a finally and at JVM shutdown, and swept when a later run finds those of a dead process.
 */
final class MatrixRunner {

    private static final int WARMUP_COMMITS = 3;

    private final MatrixOptions options;
    private final MatrixListener listener;

    MatrixRunner(MatrixOptions options, MatrixListener listener) {
        this.options = options;
        this.listener = listener;
    }

    /**
     * Runs the check and every cell holding {@link ProbeLock}: device counters are disk-wide, so no other
     * measurement of this JVM (a probe of the JUnit extensions, another matrix) may overlap them.
     */
    CommitMatrix run(Path dir) {
        SqliteDriver.require();
        Path real = Flushcheck.validateDirectory(dir);
        return ProbeLock.exclusively(() -> measure(dir, real));
    }

    private CommitMatrix measure(Path dir, Path real) {
        long start = System.nanoTime();
        List<String> notes = new ArrayList<>();
        String stale = OwnFiles.sweep(real);
        if (stale != null) {
            listener.staleFilesRemoved(stale);
            notes.add(stale);
        }
        listener.checking(dir);
        StorageInspector inspector = new StorageInspector();
        CheckResult check = options.checkPlan() == null ? unchecked(dir, real, inspector)
                : Flushcheck.check(dir, CheckOptions.defaults().withPlan(options.checkPlan()), ProbeListener.NONE);
        DeviceCounters counter = DeviceCounters.of(check.facts(), inspector);
        String version = version();
        CannotWrite failure = null;
        long totalDeadline = deadline(start, options.maxTotalSeconds());
        int total = options.cellCount();
        int index = 0;
        List<CommitCell> cells = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (JournalMode j : options.journalModes()) {
            for (Synchronous s : options.synchronous()) {
                for (boolean f : options.fullfsync()) {
                    for (int b : options.batches()) {
                        String label = CommitCell.label(j, s, f, b);
                        if (failure != null) {
                            index++;
                            continue;
                        }
                        if (System.nanoTime() >= totalDeadline) {
                            if (skipped.isEmpty()) {
                                listener.timeLimitReached(total - index);
                            }
                            skipped.add(label);
                        } else {
                            listener.cellStarted(index, total, label);
                            try {
                                CommitCell cell = runCell(real, j, s, f, b, counter, totalDeadline);
                                cells.add(cell);
                                listener.cellFinished(index, total, cell);
                            } catch (CannotWrite e) {
                                // The probe's rule: the directory gets the verdict its facts allow, and says why.
                                failure = e;
                                listener.cellFailed(index, total, e.getMessage());
                            }
                        }
                        index++;
                    }
                }
            }
        }
        if (failure != null) {
            check = withFinding(check, new Finding(FindingCode.PROBE_FAILED, failure.getMessage(),
                    failure.errno > 0 ? Map.of("errno", String.valueOf(failure.errno)) : Map.of()));
            notes.add(cells.size() + " of " + total + " cells ran: " + failure.getMessage());
        }
        notes.addAll(notes(check, counter, cells, skipped));
        return new CommitMatrix(dir.toString(), check, version, counter.names(), cells, skipped, notes,
                (System.nanoTime() - start) / 1_000_000, failure == null ? null : failure.getMessage());
    }

    private static CheckResult withFinding(CheckResult c, Finding f) {
        List<Finding> all = new ArrayList<>(c.judgement().findings());
        all.add(f);
        return new CheckResult(c.path(), c.facts(), c.costs(), new Judgement(c.verdict(), all), c.elapsedMillis());
    }

    /** The directory cannot take a database: read-only, full, no permission. Carries the errno when known. */
    static final class CannotWrite extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int errno;

        CannotWrite(String message, int errno, Throwable cause) {
            super(message, cause);
            this.errno = errno;
        }
    }

    /**
     * No check plan: no verdict (UNKNOWN), yet the storage is inspected (read-only, nothing written)
     * so that the cells still count the flushes of the directory's devices.
     */
    private static CheckResult unchecked(Path dir, Path real, StorageInspector inspector) {
        long start = System.nanoTime();
        StorageFacts facts = null;
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            try {
                facts = inspector.inspect(real);
            } catch (IOException | RuntimeException e) {
                facts = null;
            }
        }
        Judgement j = new Judgement(Verdict.UNKNOWN, List.of(Finding.of(FindingCode.NOT_PROBED, "not checked: the"
                + " matrix options have no check plan, so " + dir + " has no verdict")));
        return new CheckResult(dir.toString(), facts, List.of(), j, (System.nanoTime() - start) / 1_000_000);
    }

    private List<String> notes(CheckResult check, DeviceCounters counter, List<CommitCell> cells, List<String> skipped) {
        List<String> n = new ArrayList<>();
        boolean mac = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac");
        if (!mac && options.fullfsync().contains(true)) {
            n.add("fullfsync changes nothing on " + System.getProperty("os.name") + ": SQLite uses F_FULLFSYNC only where"
                    + " the OS has it (macOS); the fullfsync=1 rows repeat the fullfsync=0 ones and show the run-to-run noise");
        }
        if (counter.isEmpty()) {
            n.add("no device counters could be read here: flushes and KiB per commit are not measured");
        } else if (counter.names().size() == 1) {
            n.add("flushes and KiB are the device-wide counters of " + counter.names().get(0)
                    + " during each cell: other I/O on the device meanwhile is counted too");
        } else {
            n.add("flushes and KiB are those that reached the disk: the fewest counted at any level of "
                    + String.join(", ", counter.names()) + " during each cell (device-wide counters: other I/O on them"
                    + " meanwhile is counted too)");
        }
        if (options.checkPlan() == null) {
            n.add("the directory was not checked (no check plan): whether these flushes reach stable storage is UNKNOWN");
        } else if (check.verdict() != Verdict.REAL_FLUSH) {
            n.add("the directory is " + check.verdict() + ": these rates do not buy power-loss durability here");
        }
        if (cells.stream().anyMatch(CommitCell::truncated)) {
            n.add("cells marked 'time limit' stopped after " + options.maxCellSeconds() + " s with fewer rows");
        }
        if (!skipped.isEmpty()) {
            n.add(skipped.size() + " cells were skipped: the total limit of " + options.maxTotalSeconds() + " s was reached");
        }
        n.add("one closed-loop run per cell, " + options.rowBytes() + "-byte rows, a fresh database each: rank the cells,"
                + " do not argue over a few percent");
        return n;
    }

    /** The driver's SQLite version, from a database in memory: nothing is written for it. */
    private static String version() {
        try (Connection c = SqliteDriver.openMemory(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select sqlite_version()")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new SqliteException("cannot open an SQLite database in memory: " + e.getMessage(), e);
        }
    }

    /** A fresh database file in {@code dir}, ours: 0600, registered, PID in its name. */
    private static Path newDatabase(Path dir) {
        try {
            return OwnFiles.createDatabase(dir);
        } catch (NativeCallException e) {
            throw new CannotWrite("cannot create an SQLite database in " + dir + ": " + e.getMessage(), e.errno(), e);
        }
    }

    private CommitCell runCell(Path dir, JournalMode j, Synchronous s, boolean fullfsync, int batch,
                               DeviceCounters counter, long totalDeadline) {
        Path db = newDatabase(dir);
        try (Connection c = SqliteDriver.openReadWrite(db)) {
            try (Statement st = c.createStatement()) {
                String mode = pragma(st, "journal_mode=" + j.name());
                if (!j.name().equalsIgnoreCase(mode)) {
                    throw new SqliteException("SQLite refused journal_mode=" + j + " in " + dir + " (it stayed " + mode + ")");
                }
                st.execute("PRAGMA synchronous=" + s.name());
                st.execute("PRAGMA fullfsync=" + (fullfsync ? 1 : 0));
                st.execute("PRAGMA checkpoint_fullfsync=" + (fullfsync ? 1 : 0));
                st.execute("create table t(id integer primary key, v blob)");
            }
            byte[] payload = new byte[options.rowBytes()];
            new java.util.Random(42).nextBytes(payload);
            try (Statement st = c.createStatement();
                 PreparedStatement ins = c.prepareStatement("insert into t(v) values (?)")) {
                ins.setBytes(1, payload);
                for (int i = 0; i < WARMUP_COMMITS; i++) {
                    commit(st, ins, 1);
                }
                long target = options.rowsFor(batch);
                long cellDeadline = Math.min(totalDeadline, deadline(System.nanoTime(), options.maxCellSeconds()));
                long rows = 0;
                long commits = 0;
                boolean truncated = false;
                DeviceStat[] before = counter.read();
                long t0 = System.nanoTime();
                while (rows < target) {
                    int n = (int) Math.min(batch, target - rows);
                    commit(st, ins, n);
                    rows += n;
                    commits++;
                    if (rows < target && System.nanoTime() >= cellDeadline) {
                        truncated = true;
                        break;
                    }
                }
                long nanos = System.nanoTime() - t0;
                DeviceStat[] after = counter.read();
                // What got all the way down: a loop device mounted nobarrier shows 0 whatever its disk does.
                List<DeviceDelta> deltas = counter.delta(before, after);
                long flushes = DeviceDelta.flushesReached(deltas);
                long kib = DeviceDelta.kibReached(deltas);
                return new CommitCell(j, s, fullfsync, batch, rows, commits, nanos, flushes, kib, truncated);
            }
        } catch (SQLException e) {
            if (SqliteErrors.cannotWrite(e)) {
                throw new CannotWrite("cannot write an SQLite database in " + dir + " (" + CommitCell.label(j, s,
                        fullfsync, batch) + "): " + SqliteErrors.cause(e), 0, e);
            }
            throw new SqliteException("cannot run " + CommitCell.label(j, s, fullfsync, batch) + " in " + dir + ": "
                    + SqliteErrors.cause(e), e);
        } finally {
            OwnFiles.remove(db);
        }
    }

    /**
     * {@code seconds} after {@code from}, in nanoTime. Capped at a few decades, so that a huge limit (or an
     * infinite one) means "no limit" instead of overflowing into the past and skipping every cell.
     */
    static long deadline(long from, double seconds) {
        return from + (long) Math.min(seconds * 1e9, Long.MAX_VALUE / 4.0);
    }

    /** One transaction of {@code n} rows (autocommit for a single row, as an application's loop would). */
    private static void commit(Statement st, PreparedStatement ins, int n) throws SQLException {
        if (n == 1) {
            ins.executeUpdate();
            return;
        }
        st.execute("BEGIN");
        for (int i = 0; i < n; i++) {
            ins.executeUpdate();
        }
        st.execute("COMMIT");
    }

    static String pragma(Statement st, String pragma) throws SQLException {
        try (ResultSet rs = st.executeQuery("PRAGMA " + pragma)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}

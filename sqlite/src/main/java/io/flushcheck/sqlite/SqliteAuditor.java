package io.flushcheck.sqlite;

import io.flushcheck.BadPathException;
import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbeLock;
import io.flushcheck.probe.ProbePlan;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Reads the durability settings of a live connection or of a database file and audits them with
 * {@link DurabilityAudit}. Auditing never changes a setting or a byte of the database.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SqliteAuditor {

    /** The header every SQLite 3 database starts with. */
    static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    static final int BUSY_TIMEOUT_MILLIS = 1000;

    private SqliteAuditor() {
    }

    /** The short probe behind an audit's directory verdict. */
    public static CheckOptions defaultCheck() {
        return CheckOptions.defaults().withPlan(ProbePlan.verification());
    }

    /** Audits a live connection (only reads its pragmas) and checks its database's directory. */
    public static DurabilityAudit audit(Connection connection) {
        return audit(connection, defaultCheck());
    }

    public static DurabilityAudit audit(Connection connection, CheckOptions check) {
        SqliteSettings s;
        try {
            s = read(connection);
        } catch (SQLException e) {
            throw new SqliteException("cannot read the settings of the connection (is it an SQLite connection, and"
                    + " open?): " + e.getMessage(), e);
        }
        String source = "connection to " + (s.databaseFile() == null ? "an in-memory database" : s.databaseFile());
        return withDirectory(source, s, check, List.of());
    }

    /**
     * Audits a database file: opens it read-only, reads its defaults, changes nothing: not the database,
     * not its -journal, -wal or -shm, not which of them exist. A WAL database is opened immutable: every
     * other way of reading one writes its -shm (its read marks), or creates it where it is missing;
     * what the audit reads (the journal mode in the header, the connection defaults) is in the main file.
     */
    public static DurabilityAudit auditFile(Path file) {
        return auditFile(file, defaultCheck());
    }

    /**
     * @throws SqliteException with one sentence when the file is missing, not a database, locked, or
     *                         cannot be opened read-only where it lies; the file is left as it was
     */
    public static DurabilityAudit auditFile(Path file, CheckOptions check) {
        SqliteDriver.require();
        Path real = validateFile(file);
        boolean walHeader = readHeader(file, real);
        SqliteSettings s;
        try (Connection c = SqliteDriver.openReadOnly(real, BUSY_TIMEOUT_MILLIS, walHeader)) {
            s = read(c);
        } catch (SQLException e) {
            throw fileError(file, e);
        }
        if (walHeader && s.journalMode() != JournalMode.WAL) {
            // Opened immutable, SQLite reports the rollback default; the header is what the file says.
            s = new SqliteSettings(JournalMode.WAL, s.synchronous(), s.fullfsync(), s.checkpointFullfsync(),
                    s.databaseFile(), s.sqliteVersion());
        }
        List<AuditFinding> extra = new ArrayList<>();
        extra.add(new AuditFinding(AuditFinding.Severity.INFO, "PER_CONNECTION_SETTINGS", "synchronous, fullfsync and"
                + " checkpoint_fullfsync are per-connection settings, not stored in the file: shown are the defaults a"
                + " new connection of this driver (SQLite " + s.sqliteVersion() + ") gets; the application's own"
                + " connections may set others, so audit a live connection for the real answer"
                + (s.journalMode() == JournalMode.WAL ? "; journal_mode=WAL is stored in the file"
                : "; a rollback journal mode other than DELETE is per-connection too")));
        return withDirectory(file.toString(), s, check, extra);
    }

    private static DurabilityAudit withDirectory(String source, SqliteSettings s, CheckOptions check, List<AuditFinding> extra) {
        if (s.databaseFile() == null) {
            return DurabilityAudit.of(source, s, null, null, extra);
        }
        Path dir = Path.of(s.databaseFile()).toAbsolutePath().getParent();
        CheckResult result = null;
        List<AuditFinding> all = new ArrayList<>(extra);
        try {
            // A probe like any other: it must not overlap another measurement's device counters.
            result = ProbeLock.exclusively(() -> Flushcheck.check(dir, check, ProbeListener.NONE));
        } catch (BadPathException e) {
            all.add(new AuditFinding(AuditFinding.Severity.WARNING, "DIRECTORY_NOT_CHECKED", e.getMessage()));
        }
        return DurabilityAudit.of(source, s, dir.toString(), result, all);
    }

    static SqliteSettings read(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            String journal = MatrixRunner.pragma(st, "journal_mode");
            int sync = Integer.parseInt(MatrixRunner.pragma(st, "synchronous"));
            boolean full = "1".equals(MatrixRunner.pragma(st, "fullfsync"));
            boolean ckpt = "1".equals(MatrixRunner.pragma(st, "checkpoint_fullfsync"));
            String file = null;
            try (ResultSet rs = st.executeQuery("PRAGMA database_list")) {
                while (rs.next()) {
                    if ("main".equals(rs.getString("name"))) {
                        String f = rs.getString("file");
                        file = f == null || f.isEmpty() ? null : f;
                    }
                }
            }
            String version;
            try (ResultSet rs = st.executeQuery("select sqlite_version()")) {
                rs.next();
                version = rs.getString(1);
            }
            return new SqliteSettings(JournalMode.parse(journal), Synchronous.ofLevel(sync), full, ckpt, file, version);
        }
    }

    private static Path validateFile(Path file) {
        Path real;
        try {
            // The validator the probe uses: the same causes in the same words (empty, missing, a loop, ...).
            real = Flushcheck.validateExisting(file);
        } catch (BadPathException e) {
            throw new SqliteException(e.getMessage(), e);
        }
        String shown = BadPathException.shown(file);
        if (Files.isDirectory(real)) {
            throw new SqliteException(shown + " is a directory: --audit takes a database file (to measure a"
                    + " directory, run 'flushcheck sqlite " + shown + "')");
        }
        if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
            throw new SqliteException(shown + " is not a regular file, so not an SQLite database");
        }
        return real;
    }

    /** Checks the 100-byte header without SQLite; true when it says WAL (file format versions 2). */
    private static boolean readHeader(Path file, Path real) {
        byte[] h = new byte[100];
        int n;
        try (InputStream in = Files.newInputStream(real)) {
            n = in.readNBytes(h, 0, h.length);
        } catch (IOException e) {
            throw new SqliteException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (n == 0) {
            throw new SqliteException(file + " is empty: not an SQLite database (yet), nothing to audit");
        }
        if (n < h.length || !Arrays.equals(Arrays.copyOf(h, MAGIC.length), MAGIC)) {
            throw new SqliteException(file + " is not an SQLite database: it does not start with the header"
                    + " 'SQLite format 3'");
        }
        return h[18] == 2 && h[19] == 2;
    }

    private static SqliteException fileError(Path file, SQLException e) {
        int code = SqliteErrors.primary(e);
        String what = switch (code) {
            case 5, 6 -> file + " is locked by another connection (SQLITE_BUSY after " + BUSY_TIMEOUT_MILLIS
                    + " ms): audit it when no writer holds it, or audit the live connection";
            case 26, 11 -> file + " is not an SQLite database, or is corrupt (" + e.getMessage() + ")";
            case 14 -> "SQLite cannot open " + file + " read-only (" + e.getMessage() + "): check the permissions of the"
                    + " file and its directory";
            case 8 -> SqliteErrors.code(e) == SqliteErrors.READONLY_ROLLBACK
                    ? "cannot audit " + file + " read-only: " + SqliteErrors.cause(e) + "; open it read-write once"
                    + " (any SQLite client rolls it back) or audit the live connection"
                    : "cannot audit " + file + " read-only: " + SqliteErrors.cause(e);
            default -> "cannot audit " + file + ": " + e.getMessage();
        };
        return new SqliteException(what, e);
    }

    static Path sibling(Path db, String suffix) {
        return db.resolveSibling(db.getFileName() + suffix);
    }
}

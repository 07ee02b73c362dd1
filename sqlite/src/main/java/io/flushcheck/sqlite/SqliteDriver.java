package io.flushcheck.sqlite;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * The only place that knows the driver: plain JDBC over sqlite-jdbc (an optional dependency), so a
 * project without it loses the SQLite features and nothing else, with a message saying what to add.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SqliteDriver {

    static final String DRIVER_CLASS = "org.sqlite.JDBC";
    static final String COORDINATES = "org.xerial:sqlite-jdbc";
    private static final int OPEN_READONLY = 0x01;
    private static final int OPEN_URI = 0x40;

    private SqliteDriver() {
    }

    /** True when sqlite-jdbc can be loaded. */
    public static boolean available() {
        return availability(DRIVER_CLASS) == null;
    }

    /** @throws SqliteUnavailableException when sqlite-jdbc is not on the class path */
    public static void require() {
        Throwable t = availability(DRIVER_CLASS);
        if (t != null) {
            throw unavailable(DRIVER_CLASS, t);
        }
    }

    static SqliteUnavailableException unavailable(String className, Throwable cause) {
        return new SqliteUnavailableException("the SQLite checks need the JDBC driver " + className + ", which is not on the"
                + " class path: add the dependency " + COORDINATES + " (3.x) to the project", cause);
    }

    /** Null when the class loads, else why not. */
    static Throwable availability(String className) {
        try {
            Class.forName(className, true, SqliteDriver.class.getClassLoader());
            return null;
        } catch (ClassNotFoundException | LinkageError e) {
            return e;
        }
    }

    /** A read-write connection (creates the file when it does not exist). */
    static Connection openReadWrite(Path file) throws SQLException {
        require();
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
    }

    /** A connection to a private database in memory. */
    static Connection openMemory() throws SQLException {
        require();
        return DriverManager.getConnection("jdbc:sqlite::memory:");
    }

    /**
     * A read-only connection (SQLITE_OPEN_READONLY through a {@code mode=ro} URI): it cannot create,
     * write or checkpoint the file.
     */
    static Connection openReadOnly(Path file, int busyTimeoutMillis) throws SQLException {
        return openReadOnly(file, busyTimeoutMillis, false);
    }

    /**
     * @param immutable also {@code immutable=1}: no locks, no -shm or -wal files; only right for a
     *                  database nobody writes (a WAL database with no -wal file has no writer)
     */
    static Connection openReadOnly(Path file, int busyTimeoutMillis, boolean immutable) throws SQLException {
        require();
        Properties p = new Properties();
        p.setProperty("open_mode", String.valueOf(OPEN_READONLY | OPEN_URI));
        p.setProperty("busy_timeout", String.valueOf(busyTimeoutMillis));
        Connection c = DriverManager.getConnection("jdbc:sqlite:file:" + uriPath(file) + "?mode=ro" + (immutable ? "&immutable=1" : ""), p);
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(Math.max(1, busyTimeoutMillis / 1000));
        }
        return c;
    }

    /** The path as a URI path: percent-encodes what a URI would misread. */
    static String uriPath(Path file) {
        String s = file.toAbsolutePath().toString();
        StringBuilder sb = new StringBuilder();
        for (char ch : s.toCharArray()) {
            if (ch == '%' || ch == '?' || ch == '#' || ch == ' ') {
                sb.append(String.format("%%%02X", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }
}

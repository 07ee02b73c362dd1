package io.flushcheck.sqlite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.UUID;

/** Real directories on the build's disk (under target/) and fingerprints of files. */
public final class SqliteTestFiles {

    private SqliteTestFiles() {
    }

    /** A fresh directory under target/sqlite-tests, on the checkout's disk (not tmpfs). */
    public static Path diskDir(String name) throws IOException {
        Path d = Path.of("target", "sqlite-tests", name + "-" + UUID.randomUUID()).toAbsolutePath();
        Files.createDirectories(d);
        return d;
    }

    static Connection open(Path db) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite:" + db);
    }

    /** A database with one table and a few rows, in the given journal mode, all connections closed. */
    public static Path database(Path dir, JournalMode mode) throws SQLException {
        return database(dir, mode, "app-" + mode + ".db");
    }

    public static Path database(Path dir, JournalMode mode, String name) throws SQLException {
        Path db = dir.resolve(name);
        try (Connection c = open(db); Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=" + mode);
            s.execute("create table t(id integer primary key, v text)");
            s.execute("insert into t(v) values ('a'), ('b'), ('c')");
        }
        return db;
    }

    /** SHA-256 of the content plus the modification time in nanoseconds. */
    static String fingerprint(Path file) throws IOException {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
            return HexFormat.of().formatHex(d) + " mtime " + Files.getLastModifiedTime(file).toInstant();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}

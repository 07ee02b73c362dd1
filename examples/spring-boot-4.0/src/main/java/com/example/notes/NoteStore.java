package com.example.notes;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Notes in a SQLite database. {@link #add} returns once its transaction is committed: write-ahead log with
 * {@code synchronous=FULL}, which syncs the log at each commit.
 */
public final class NoteStore implements AutoCloseable {

    private final Connection connection;

    private NoteStore(Connection connection) {
        this.connection = connection;
    }

    public static NoteStore open(Path database) throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + database);
        try (Statement s = connection.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=FULL");
            s.execute("CREATE TABLE IF NOT EXISTS note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new NoteStore(connection);
    }

    /** Adds a note; returns once it is committed. */
    public void add(String text) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO note (text) VALUES (?)")) {
            insert.setString(1, text);
            insert.executeUpdate();
        }
    }

    /** Every note, oldest first. */
    public List<String> all() throws SQLException {
        List<String> notes = new ArrayList<>();
        try (Statement s = connection.createStatement();
             ResultSet rows = s.executeQuery("SELECT text FROM note ORDER BY id")) {
            while (rows.next()) {
                notes.add(rows.getString(1));
            }
        }
        return notes;
    }

    /** The connection, for code that inspects its settings. */
    public Connection connection() {
        return connection;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}

package io.flushcheck.sqlite;

/** The optional dependency sqlite-jdbc is not on the class path. */
public final class SqliteUnavailableException extends SqliteException {

    private static final long serialVersionUID = 1L;

    public SqliteUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

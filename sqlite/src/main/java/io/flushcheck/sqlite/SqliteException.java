package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/**
 * A database or directory that SQLite checks cannot use (not a database, locked, read-only, missing
 * driver). The message is one sentence naming the path and what to do; nothing was modified.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public class SqliteException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SqliteException(String message) {
        super(message);
    }

    public SqliteException(String message, Throwable cause) {
        super(message, cause);
    }
}

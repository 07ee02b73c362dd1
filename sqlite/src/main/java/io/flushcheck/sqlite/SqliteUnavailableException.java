package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/** The optional dependency sqlite-jdbc is not on the class path. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SqliteUnavailableException extends SqliteException {

    private static final long serialVersionUID = 1L;

    public SqliteUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

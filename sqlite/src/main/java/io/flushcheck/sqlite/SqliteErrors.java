package io.flushcheck.sqlite;

import java.sql.SQLException;

/**
 * What an SQLite error means, by its extended result code: the one rule by which the matrix and the
 * audit name a failure's real cause. Loaded only once an SQLException exists, so sqlite-jdbc is there.
 */
final class SqliteErrors {

    static final int PERM = 3;
    static final int READONLY = 8;
    static final int IOERR = 10;
    static final int FULL = 13;
    static final int CANTOPEN = 14;
    static final int READONLY_RECOVERY = 8 | (1 << 8);
    static final int READONLY_CANTLOCK = 8 | (2 << 8);
    static final int READONLY_ROLLBACK = 8 | (3 << 8);
    static final int READONLY_DBMOVED = 8 | (4 << 8);
    static final int READONLY_CANTINIT = 8 | (5 << 8);
    static final int READONLY_DIRECTORY = 8 | (6 << 8);

    private SqliteErrors() {
    }

    /** The extended result code where the driver has it, else the primary one. */
    static int code(SQLException e) {
        if (e instanceof org.sqlite.SQLiteException s && s.getResultCode() != null) {
            return s.getResultCode().code;
        }
        return e.getErrorCode();
    }

    static int primary(SQLException e) {
        return code(e) & 0xff;
    }

    /**
     * True when the error says the directory's files cannot be created or written (read-only, full, no
     * permission, I/O error): a fact about the directory, not about the database or the options.
     */
    static boolean cannotWrite(SQLException e) {
        int c = code(e);
        if (c == READONLY_ROLLBACK || c == READONLY_DBMOVED) {
            return false;
        }
        int p = c & 0xff;
        return p == READONLY || p == FULL || p == CANTOPEN || p == PERM || p == IOERR;
    }

    /** The cause in words, with SQLite's own message; never "read-only" for what is not. */
    static String cause(SQLException e) {
        int c = code(e);
        String m = e.getMessage();
        return switch (c) {
            case READONLY_ROLLBACK -> "it has a hot journal (a -journal file holding a transaction that a writer did not"
                    + " finish: killed, crashed or power lost), which SQLite must roll back before anyone reads the"
                    + " database, and a read-only connection cannot (" + m + ")";
            case READONLY_DIRECTORY -> "the directory cannot be written (" + m + ")";
            case READONLY_RECOVERY, READONLY_CANTINIT -> "its WAL index (-shm) must be rebuilt, which a read-only"
                    + " connection cannot do (" + m + ")";
            case READONLY_CANTLOCK -> "its WAL index (-shm) cannot be locked read-only (" + m + ")";
            case READONLY_DBMOVED -> "the database file was renamed or removed while open (" + m + ")";
            default -> switch (c & 0xff) {
                case READONLY -> "a file is read-only: the database, its directory or its filesystem (" + m + ")";
                case FULL -> "the disk is full (" + m + ")";
                case CANTOPEN -> "a file cannot be opened: the directory is read-only, or permissions forbid it ("
                        + m + ")";
                case PERM -> "permission denied (" + m + ")";
                case IOERR -> "an I/O error (" + m + ")";
                default -> m;
            };
        };
    }
}

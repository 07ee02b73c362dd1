package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/**
 * The durability settings of one SQLite connection.
 *
 * @param journalMode          {@code PRAGMA journal_mode}
 * @param synchronous          {@code PRAGMA synchronous}
 * @param fullfsync            {@code PRAGMA fullfsync}
 * @param checkpointFullfsync  {@code PRAGMA checkpoint_fullfsync}
 * @param databaseFile         the main database's file, or null for an in-memory or temporary database
 * @param sqliteVersion        {@code sqlite_version()}
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record SqliteSettings(JournalMode journalMode, Synchronous synchronous, boolean fullfsync,
                             boolean checkpointFullfsync, String databaseFile, String sqliteVersion) {

    /** Settings of a file database, for tests and the rules. */
    public static SqliteSettings of(JournalMode j, Synchronous s, boolean fullfsync) {
        return new SqliteSettings(j, s, fullfsync, fullfsync, "/data/app.db", "3");
    }
}

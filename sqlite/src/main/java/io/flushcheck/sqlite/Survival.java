package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/** How committed transactions fare after an event (an application crash, a power loss). */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum Survival {
    /** They survive: SQLite's documentation promises it for these settings, and the storage keeps synced data. */
    YES,
    /** The settings promise it, but whether syncs reach a device here is unknown. */
    UNKNOWN,
    /** The database stays consistent, but the most recent commits may roll back. */
    RECENT_COMMITS_MAY_ROLL_BACK,
    /** Synced data does not reach a device here: commits since the last real write-back are lost. */
    NO,
    /** The database file itself may be corrupted. */
    MAY_CORRUPT;

    public boolean survives() {
        return this == YES;
    }

    Survival worse(Survival other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}

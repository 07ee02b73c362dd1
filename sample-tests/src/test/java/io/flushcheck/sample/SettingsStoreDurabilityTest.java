package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flushcheck.sqlite.MeasureSqliteCommits;
import io.flushcheck.jupiter.RequiresRealFlush;
import io.flushcheck.sqlite.CommitCell;
import io.flushcheck.sqlite.CommitMatrix;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.SqliteDurability;
import io.flushcheck.sqlite.Synchronous;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's durability promise, checked against SQLite's documented matrix and the real directory. */
@RequiresRealFlush
class SettingsStoreDurabilityTest {

    @TempDir
    Path dir;

    // tag::sqlite-audit[]
    @Test
    void itsConnectionIsPowerLossDurable() throws Exception {
        try (SettingsStore store = SettingsStore.open(dir.resolve("settings.db"))) {
            SqliteDurability.assertPowerLossDurable(store.connection());
            store.put("theme", "dark");
            assertEquals(Optional.of("dark"), store.get("theme"));
        }
    }
    // end::sqlite-audit[]

    /** Why the store pays for FULL: one flush per commit, where NORMAL would flush only at checkpoints. */
    // tag::sqlite-commit-matrix[]
    @Test
    @MeasureSqliteCommits(journalModes = JournalMode.WAL, synchronous = {Synchronous.NORMAL, Synchronous.FULL}, batches = 1, rows = 200)
    void fullCostsAFlushPerCommit(CommitMatrix m) {
        CommitCell full = m.require(JournalMode.WAL, Synchronous.FULL, false, 1);
        CommitCell normal = m.require(JournalMode.WAL, Synchronous.NORMAL, false, 1);
        assertTrue(full.flushesPerCommit() >= 0.9, () -> "WAL+FULL: " + full.flushesPerCommit() + " flushes per commit");
        assertTrue(normal.commitsPerSecond() > full.commitsPerSecond(),
                () -> "NORMAL " + normal.commitsPerSecond() + "/s should beat FULL " + full.commitsPerSecond() + "/s");
    }
    // end::sqlite-commit-matrix[]
}

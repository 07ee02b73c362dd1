package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.CheckResult;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exact JSON of {@code flushcheck sqlite --json} for a matrix and an audit built by hand: every field's
 * name, its place and its value (NaN and uncounted figures as null), so that a change of the shape fails here
 * without SQLite or a disk.
 */
class SqliteJsonTests {

    static CommitMatrix matrix() {
        CheckResult check = new CheckResult("/data", null, List.of(), new Judgement(Verdict.UNKNOWN,
                List.of(Finding.of(FindingCode.NOT_PROBED, "not checked"))), 3);
        CommitCell counted = new CommitCell(JournalMode.WAL, Synchronous.FULL, false, 1, 200, 200, 2_000_000_000L,
                210, 1640, false);
        CommitCell uncounted = new CommitCell(JournalMode.DELETE, Synchronous.OFF, true, 1000, 50, 0, 0, -1, -1, true);
        return new CommitMatrix("/data", check, "3.46.0", List.of("vda"), List.of(counted, uncounted),
                List.of("TRUNCATE/FULL/fullfsync=0/batch=1"), List.of("a note"), 4321, "disk full");
    }

    @Test
    void theMatrixJsonHasEveryFieldInItsPlace() {
        assertThat(matrix().toJson()).isEqualTo("""
                {
                  "directory": "/data",
                  "verdict": "UNKNOWN",
                  "verdictSummary": "not checked",
                  "sqliteVersion": "3.46.0",
                  "devices": [
                    "vda"
                  ],
                  "rows": [
                    {
                      "journalMode": "WAL",
                      "synchronous": "FULL",
                      "fullfsync": false,
                      "batch": 1,
                      "rowsPerSecond": 100,
                      "commitsPerSecond": 100,
                      "flushesPerCommit": 1.05,
                      "kibPerCommit": 8.2,
                      "rows": 200,
                      "commits": 200,
                      "seconds": 2,
                      "flushes": 210,
                      "truncated": false
                    },
                    {
                      "journalMode": "DELETE",
                      "synchronous": "OFF",
                      "fullfsync": true,
                      "batch": 1000,
                      "rowsPerSecond": null,
                      "commitsPerSecond": null,
                      "flushesPerCommit": null,
                      "kibPerCommit": null,
                      "rows": 50,
                      "commits": 0,
                      "seconds": 0,
                      "flushes": null,
                      "truncated": true
                    }
                  ],
                  "skipped": [
                    "TRUNCATE/FULL/fullfsync=0/batch=1"
                  ],
                  "notes": [
                    "a note"
                  ],
                  "failure": "disk full",
                  "elapsedMillis": 4321
                }
                """);
    }

    @Test
    void anAbsentFailureIsNull() {
        CommitMatrix m = matrix();
        CommitMatrix ok = new CommitMatrix(m.directory(), m.check(), m.sqliteVersion(), List.of(), List.of(), List.of(),
                List.of(), 1);
        assertThat(ok.toJson()).contains("\"devices\": [],", "\"rows\": [],", "\"failure\": null,");
    }

    @Test
    void theAuditJsonHasEveryFieldInItsPlace() {
        SqliteSettings s = new SqliteSettings(JournalMode.WAL, Synchronous.NORMAL, false, true, "/data/app.db", "3.46.0");
        DurabilityAudit a = new DurabilityAudit("/data/app.db", s, "/data", Verdict.REAL_FLUSH, "FLUSHES_REACHED: yes",
                new Answer(Survival.YES, "crash reason"), new Answer(Survival.RECENT_COMMITS_MAY_ROLL_BACK, "power reason"),
                List.of(new AuditFinding(AuditFinding.Severity.INFO, "FULLFSYNC_IGNORED", "ignored here")));
        assertThat(a.toJson()).isEqualTo("""
                {
                  "source": "/data/app.db",
                  "databaseFile": "/data/app.db",
                  "sqliteVersion": "3.46.0",
                  "journalMode": "WAL",
                  "synchronous": "NORMAL",
                  "fullfsync": false,
                  "checkpointFullfsync": true,
                  "directory": "/data",
                  "verdict": "REAL_FLUSH",
                  "verdictSummary": "FLUSHES_REACHED: yes",
                  "survivesApplicationCrash": {
                    "survives": true,
                    "survival": "YES",
                    "reason": "crash reason"
                  },
                  "survivesPowerLoss": {
                    "survives": false,
                    "survival": "RECENT_COMMITS_MAY_ROLL_BACK",
                    "reason": "power reason"
                  },
                  "findings": [
                    {
                      "severity": "INFO",
                      "code": "FULLFSYNC_IGNORED",
                      "message": "ignored here"
                    }
                  ]
                }
                """);
    }

    @Test
    void anInMemoryDatabaseHasNullFileAndDirectory() {
        SqliteSettings s = new SqliteSettings(JournalMode.MEMORY, Synchronous.OFF, false, false, null, "3");
        DurabilityAudit a = DurabilityAudit.judge(":memory:", s, null, Verdict.UNKNOWN, "not checked", false, false);
        assertThat(a.toJson()).contains("\"databaseFile\": null,", "\"directory\": null,", "\"findings\": []");
    }
}

package io.flushcheck.sqlite;

import io.flushcheck.CheckResult;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * What an SQLite configuration promises where it runs: "survives an application crash?" and
 * "survives a power loss?", each with its reason, following SQLite's documented matrix
 * (https://www.sqlite.org/pragma.html#pragma_synchronous, https://www.sqlite.org/wal.html) and
 * the verdict on the database's directory.
 *
 * @param source         what was audited: a connection, or a file opened read-only
 * @param settings       the settings read
 * @param directory      the database's directory, or null for an in-memory database
 * @param verdict        the directory's verdict (UNKNOWN when it was not checked)
 * @param verdictSummary the reasons of that verdict
 * @param applicationCrash the answer for an application crash (process killed, segfault)
 * @param powerLoss      the answer for a power loss or an operating-system crash
 * @param findings       errors, warnings and notes beside the answers
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record DurabilityAudit(String source, SqliteSettings settings, String directory, Verdict verdict,
                              String verdictSummary, Answer applicationCrash, Answer powerLoss,
                              List<AuditFinding> findings) {

    static final String PRAGMA_DOC = "https://www.sqlite.org/pragma.html#pragma_synchronous";
    static final String WAL_DOC = "https://www.sqlite.org/wal.html";

    public DurabilityAudit {
        findings = List.copyOf(findings);
    }

    /**
     * Judges settings on a storage: the pure rules, without I/O.
     *
     * @param networkOrShared the directory is on a network or host-shared filesystem
     * @param macOs           syncs are macOS syncs (fsync without F_FULLFSYNC does not flush the drive)
     */
    public static DurabilityAudit judge(String source, SqliteSettings s, String directory, Verdict verdict,
                                        String verdictSummary, boolean networkOrShared, boolean macOs) {
        List<AuditFinding> findings = new ArrayList<>();
        Answer crash = applicationCrash(s.journalMode());
        Answer power = powerLoss(s.journalMode(), s.synchronous());
        if (s.databaseFile() == null) {
            Answer gone = new Answer(Survival.NO, "the database is in memory (or a temporary file): nothing of it outlives"
                    + " the connection");
            return new DurabilityAudit(source, s, null, verdict, verdictSummary, gone, gone, findings);
        }
        if (s.journalMode() == JournalMode.WAL && networkOrShared) {
            findings.add(new AuditFinding(AuditFinding.Severity.ERROR, "WAL_ON_NETWORK_FILESYSTEM", "journal_mode=WAL on a"
                    + " network or host-shared filesystem (" + directory + "): WAL needs shared memory that every"
                    + " connection sees, which such filesystems do not give (" + WAL_DOC + "); move the database to"
                    + " local storage or use a rollback journal"));
            power = new Answer(power.survival().worse(Survival.MAY_CORRUPT), power.reason() + "; and WAL on a network"
                    + " or host-shared filesystem can corrupt the database when more than one host opens it");
        }
        boolean syncs = s.synchronous() != Synchronous.OFF && s.journalMode() != JournalMode.OFF
                && s.journalMode() != JournalMode.MEMORY;
        if (macOs && syncs && !s.fullfsync()) {
            power = new Answer(power.survival().worse(Survival.NO), power.reason() + "; but on macOS SQLite's sync is a"
                    + " plain fsync(), which hands data to the drive without flushing its cache: set PRAGMA fullfsync=1"
                    + (s.journalMode() == JournalMode.WAL ? " (checkpoint_fullfsync covers checkpoints only)" : ""));
        } else if (!macOs && (s.fullfsync() || s.checkpointFullfsync())) {
            findings.add(new AuditFinding(AuditFinding.Severity.INFO, "FULLFSYNC_IGNORED", "fullfsync and"
                    + " checkpoint_fullfsync change nothing on " + System.getProperty("os.name") + ": F_FULLFSYNC exists"
                    + " on macOS only; here fsync() already asks the device to flush"));
        }
        if (verdict == Verdict.NO_REAL_FLUSH) {
            power = new Answer(power.survival().worse(Survival.NO), power.reason() + "; but syncs in " + directory
                    + " do not reach a device that keeps them, so no setting makes commits survive a power loss there: "
                    + verdictSummary);
        } else if (verdict == Verdict.UNKNOWN && power.survival() == Survival.YES) {
            power = new Answer(Survival.UNKNOWN, power.reason() + "; but whether syncs in " + directory
                    + " reach a device is unknown: " + verdictSummary);
        } else if (verdict == Verdict.REAL_FLUSH && power.survival() == Survival.YES) {
            power = new Answer(Survival.YES, power.reason() + "; and syncs in " + directory + " reach a device: "
                    + verdictSummary);
        }
        return new DurabilityAudit(source, s, directory, verdict, verdictSummary, crash, power, findings);
    }

    /** SQLite's answer for an application crash, from the journal mode alone. */
    public static Answer applicationCrash(JournalMode j) {
        if (j == JournalMode.OFF || j == JournalMode.MEMORY) {
            return new Answer(Survival.MAY_CORRUPT, "journal_mode=" + j + " keeps no rollback journal on disk: committed"
                    + " transactions survive, but an application crash in the middle of a transaction will very likely"
                    + " corrupt the database (https://www.sqlite.org/pragma.html#pragma_journal_mode)");
        }
        return new Answer(Survival.YES, "at commit the data is in the operating system, which outlives the process:"
                + " \"transactions are durable across application crashes regardless of the synchronous setting or"
                + " journal mode\" (" + WAL_DOC + ")");
    }

    /** SQLite's answer for a power loss from its documented matrix, before the storage is considered. */
    public static Answer powerLoss(JournalMode j, Synchronous s) {
        String cfg = "journal_mode=" + j + " with synchronous=" + s;
        if (j == JournalMode.OFF || j == JournalMode.MEMORY) {
            return new Answer(Survival.MAY_CORRUPT, cfg + ": there is no journal on disk to roll an interrupted"
                    + " transaction back, so a power loss during one can corrupt the database");
        }
        if (s == Synchronous.OFF) {
            return new Answer(Survival.MAY_CORRUPT, cfg + ": SQLite never syncs, so a power loss or OS crash before the"
                    + " data reaches the disk can corrupt the database (" + PRAGMA_DOC + ")");
        }
        if (j == JournalMode.WAL) {
            if (s == Synchronous.NORMAL) {
                return new Answer(Survival.RECENT_COMMITS_MAY_ROLL_BACK, cfg + ": the WAL is synced only at checkpoints,"
                        + " so the last commits may roll back after a power loss; the database stays consistent (" + WAL_DOC
                        + "); use synchronous=FULL for durable commits");
            }
            return new Answer(Survival.YES, cfg + ": the WAL is synced at every commit, so committed transactions"
                    + " are durable (" + PRAGMA_DOC + ")");
        }
        if (s == Synchronous.NORMAL) {
            return new Answer(Survival.RECENT_COMMITS_MAY_ROLL_BACK, cfg + ": the journal is synced once, not at the"
                    + " critical moments FULL adds, so the last commit may be lost and, on older filesystems, a power"
                    + " loss at the wrong time can corrupt the database (" + PRAGMA_DOC + "); use synchronous=FULL"
                    + (j == JournalMode.DELETE ? " or EXTRA" : ""));
        }
        if (j == JournalMode.DELETE && s == Synchronous.FULL) {
            return new Answer(Survival.RECENT_COMMITS_MAY_ROLL_BACK, cfg + ": the commit is the deletion of the journal,"
                    + " and FULL does not sync the directory afterwards, so a commit followed closely by a power loss may"
                    + " roll back; the database stays consistent (" + PRAGMA_DOC + "); use synchronous=EXTRA");
        }
        if (j == JournalMode.DELETE) {
            return new Answer(Survival.YES, cfg + ": the journal and the database are synced, and so is the directory"
                    + " after the journal is deleted, so committed transactions are durable (" + PRAGMA_DOC + ")");
        }
        return new Answer(Survival.YES, cfg + ": the journal and the database are synced, and so is the journal's reset"
                + " (" + (j == JournalMode.TRUNCATE ? "truncation" : "zeroed header") + ") that commits, so committed"
                + " transactions are durable (" + PRAGMA_DOC + ")");
    }

    /** True when a power loss keeps every committed transaction and nothing is an error. */
    public boolean powerLossDurable() {
        return powerLoss.survives() && findings.stream().noneMatch(f -> f.severity() == AuditFinding.Severity.ERROR);
    }

    static boolean isMacOs() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac");
    }

    static DurabilityAudit of(String source, SqliteSettings s, String directory, CheckResult check, List<AuditFinding> extra) {
        boolean network = check != null && check.facts() != null && check.facts().networkOrShared();
        Verdict v = check == null ? Verdict.UNKNOWN : check.verdict();
        String summary = check == null ? "not checked" : check.judgement().summary();
        DurabilityAudit a = judge(source, s, directory, v, summary, network, isMacOs());
        List<AuditFinding> all = new ArrayList<>(a.findings());
        all.addAll(extra);
        return new DurabilityAudit(a.source, a.settings, a.directory, a.verdict, a.verdictSummary, a.applicationCrash,
                a.powerLoss, all);
    }

    /** The JSON text of {@code flushcheck sqlite --audit --json}: {@link #document()}, ending in a newline. */
    public String toJson() {
        return Json.write(document());
    }

    /** The audit as {@code flushcheck sqlite --audit --json} writes it. */
    public Document document() {
        return new Document(source, settings.databaseFile(), settings.sqliteVersion(), settings.journalMode(),
                settings.synchronous(), settings.fullfsync(), settings.checkpointFullfsync(), directory, verdict,
                verdictSummary, AnswerDocument.of(applicationCrash), AnswerDocument.of(powerLoss), findings);
    }

    /**
     * The JSON document of an audit: each component a field, in this order ({@link io.flushcheck.report.Json}).
     *
     * @param databaseFile null for an in-memory or temporary database
     * @param directory    null for an in-memory or temporary database
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Document(String source, String databaseFile, String sqliteVersion, JournalMode journalMode,
                           Synchronous synchronous, boolean fullfsync, boolean checkpointFullfsync, String directory,
                           Verdict verdict, String verdictSummary, AnswerDocument survivesApplicationCrash,
                           AnswerDocument survivesPowerLoss, List<AuditFinding> findings) {

        public Document {
            findings = List.copyOf(findings);
        }
    }

    /** An {@link Answer} in {@link Document}, with whether it survives first. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record AnswerDocument(boolean survives, Survival survival, String reason) {

        static AnswerDocument of(Answer a) {
            return new AnswerDocument(a.survives(), a.survival(), a.reason());
        }
    }

    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("== SQLite durability audit of ").append(Escape.of(source)).append('\n');
        sb.append("   journal_mode=").append(settings.journalMode()).append(" synchronous=").append(settings.synchronous())
                .append(" fullfsync=").append(settings.fullfsync() ? 1 : 0).append(" checkpoint_fullfsync=")
                .append(settings.checkpointFullfsync() ? 1 : 0).append(" (SQLite ").append(settings.sqliteVersion())
                .append(")\n");
        if (directory != null) {
            sb.append("   directory ").append(Escape.of(directory)).append(": ").append(verdict).append(" (")
                    .append(Escape.of(verdictSummary))
                    .append(")\n");
        }
        sb.append("survives an application crash? ").append(yesNo(applicationCrash)).append('\n');
        sb.append("survives a power loss? ").append(yesNo(powerLoss)).append('\n');
        for (AuditFinding f : findings) {
            sb.append("  - ").append(Escape.of(f)).append('\n');
        }
        return sb.toString();
    }

    private static String yesNo(Answer a) {
        return (a.survives() ? "yes" : "no") + " (" + a.survival() + "): " + Escape.of(a.reason());
    }
}

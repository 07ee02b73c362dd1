package io.flushcheck.sqlite;

import static io.flushcheck.sqlite.SqliteTestFiles.exec;
import static io.flushcheck.sqlite.SqliteTestFiles.fingerprint;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.HeldProbeLock;
import io.flushcheck.testing.Requirements;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Audits of real connections and files on the checkout's disk. */
public class SqliteAuditorTests {

    static Path dir;

    @BeforeAll
    static void directory() throws IOException {
        dir = SqliteTestFiles.diskDir("audit");
    }

    static Stream<Arguments> everyPair() {
        return DurabilityAuditRulesTests.documentedMatrix();
    }

    @ParameterizedTest(name = "live connection journal_mode={0} synchronous={1}")
    @MethodSource("everyPair")
    void auditOfALiveConnectionReadsItsSettingsAndJudgesThemOnThisDisk(JournalMode j, Synchronous s, Survival crash,
                                                                      Survival power) throws Exception {
        Path db = dir.resolve("live-" + j + "-" + s + ".db");
        try (Connection c = SqliteTestFiles.open(db)) {
            exec(c, "PRAGMA journal_mode=" + j);
            exec(c, "PRAGMA synchronous=" + s);
            DurabilityAudit a = SqliteAuditor.audit(c);
            assertThat(a.settings().journalMode()).isEqualTo(j);
            assertThat(a.settings().synchronous()).isEqualTo(s);
            assertThat(a.settings().databaseFile()).isEqualTo(db.toString());
            assertThat(a.verdict()).as("the checkout's disk: %s", a.verdictSummary()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(a.applicationCrash().survival()).isEqualTo(crash);
            assertThat(a.powerLoss().survival()).isEqualTo(power);
        }
    }

    @Test
    void theDirectoryCheckOfAnAuditWaitsForTheProbeLock() throws Exception {
        HeldProbeLock other = HeldProbeLock.take();
        try (Connection c = SqliteTestFiles.open(dir.resolve("locked.db"))) {
            exec(c, "PRAGMA journal_mode=WAL");
            var audit = java.util.concurrent.CompletableFuture.supplyAsync(() -> SqliteAuditor.audit(c));
            Thread.sleep(500);
            assertThat(audit).isNotDone();
            other.release();
            assertThat(audit.get(60, java.util.concurrent.TimeUnit.SECONDS).verdict()).isEqualTo(Verdict.REAL_FLUSH);
        } finally {
            other.release();
        }
    }

    @Test
    void assertPowerLossDurablePassesForWalFull() throws Exception {
        try (Connection c = SqliteTestFiles.open(dir.resolve("walfull.db"))) {
            exec(c, "PRAGMA journal_mode=WAL");
            exec(c, "PRAGMA synchronous=FULL");
            assertThat(SqliteDurability.assertPowerLossDurable(c).powerLoss().survives()).isTrue();
        }
    }

    @Test
    void assertPowerLossDurableFailsForWalNormalWithTheReason() throws Exception {
        try (Connection c = SqliteTestFiles.open(dir.resolve("walnormal.db"))) {
            exec(c, "PRAGMA journal_mode=WAL");
            exec(c, "PRAGMA synchronous=NORMAL");
            assertThatThrownBy(() -> SqliteDurability.assertPowerLossDurable(c))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageStartingWith("the connection to " + dir.resolve("walnormal.db") + " is not power-loss durable:"
                            + " RECENT_COMMITS_MAY_ROLL_BACK: journal_mode=WAL with synchronous=NORMAL")
                    .hasMessageContaining("use synchronous=FULL");
        }
    }

    @Test
    void assertPowerLossDurableFailsForDeleteFullAndNamesExtra() throws Exception {
        try (Connection c = SqliteTestFiles.open(dir.resolve("deletefull.db"))) {
            exec(c, "PRAGMA synchronous=FULL");
            assertThatThrownBy(() -> SqliteDurability.assertPowerLossDurable(c))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("use synchronous=EXTRA");
        }
    }

    @Test
    void anInMemoryConnectionIsNotDurable() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            DurabilityAudit a = SqliteAuditor.audit(c);
            assertThat(a.powerLoss().survival()).isEqualTo(Survival.NO);
            assertThat(a.source()).isEqualTo("connection to an in-memory database");
        }
    }

    @Test
    void onTmpfsNoSettingIsPowerLossDurable() throws Exception {
        Path shm = Path.of("/dev/shm");
        Requirements.require(Files.isDirectory(shm) && Files.isWritable(shm), "a writable /dev/shm (tmpfs)");
        Path db = shm.resolve("flushcheck-audit-" + ProcessHandle.current().pid() + ".db");
        try (Connection c = SqliteTestFiles.open(db)) {
            exec(c, "PRAGMA journal_mode=WAL");
            exec(c, "PRAGMA synchronous=FULL");
            DurabilityAudit a = SqliteAuditor.audit(c);
            assertThat(a.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(a.powerLoss().survival()).isEqualTo(Survival.NO);
            assertThat(a.powerLoss().reason()).contains("tmpfs");
        } finally {
            for (String suffix : List.of("", "-journal", "-wal", "-shm")) {
                Files.deleteIfExists(SqliteAuditor.sibling(db, suffix));
            }
        }
    }

    @ParameterizedTest(name = "file in journal_mode={0}")
    @EnumSource(value = JournalMode.class, names = {"DELETE", "WAL", "TRUNCATE"})
    void auditOfAFileReadsItWithoutChangingIt(JournalMode mode) throws Exception {
        Path db = SqliteTestFiles.database(dir, mode);
        List<String> before = listing(db);
        String print = fingerprint(db);
        DurabilityAudit a = SqliteAuditor.auditFile(db);
        assertThat(fingerprint(db)).isEqualTo(print);
        assertThat(listing(db)).as("no -wal, -shm or -journal file left behind").isEqualTo(before);
        assertThat(a.settings().journalMode()).isEqualTo(mode == JournalMode.WAL ? JournalMode.WAL : JournalMode.DELETE);
        assertThat(a.findings()).anySatisfy(f -> {
            assertThat(f.code()).isEqualTo("PER_CONNECTION_SETTINGS");
            assertThat(f.message()).startsWith("synchronous, fullfsync and checkpoint_fullfsync are per-connection settings");
        });
        assertThat(a.verdict()).isEqualTo(Verdict.REAL_FLUSH);
    }

    @Test
    void aFileThatIsNotADatabaseGetsOneClearErrorAndStaysAsItWas() throws Exception {
        Path f = dir.resolve("notes.txt");
        Files.writeString(f, "this is not a database, but it is more than a hundred bytes long, so that only the magic "
                + "string at its start can tell; SQLite must not touch it");
        String print = fingerprint(f);
        assertThatThrownBy(() -> SqliteAuditor.auditFile(f)).isInstanceOf(SqliteException.class)
                .hasMessage(f + " is not an SQLite database: it does not start with the header 'SQLite format 3'");
        assertThat(fingerprint(f)).isEqualTo(print);
        assertThat(Files.list(dir).filter(p -> p.getFileName().toString().startsWith("notes.txt-")).count()).isZero();
    }

    @Test
    void aMissingFileAndADirectoryGetClearErrors() {
        assertThatThrownBy(() -> SqliteAuditor.auditFile(dir.resolve("missing.db")))
                .hasMessage(dir.resolve("missing.db") + " does not exist");
        assertThatThrownBy(() -> SqliteAuditor.auditFile(dir)).hasMessageStartingWith(dir + " is a directory");
    }

    @Test
    void aLockedRollbackDatabaseGetsOneClearErrorAndStaysAsItWas() throws Exception {
        Path db = SqliteTestFiles.database(dir, JournalMode.DELETE, "locked-DELETE.db");
        try (Connection holder = SqliteTestFiles.open(db)) {
            exec(holder, "PRAGMA locking_mode=EXCLUSIVE");
            exec(holder, "BEGIN EXCLUSIVE");
            exec(holder, "insert into t(v) values ('held')");
            Map<String, String> before = files(db);
            assertThatThrownBy(() -> SqliteAuditor.auditFile(db)).isInstanceOf(SqliteException.class)
                    .hasMessage(db + " is locked by another connection (SQLITE_BUSY after 1000 ms): audit it when no writer"
                            + " holds it, or audit the live connection");
            assertThat(files(db)).isEqualTo(before);
            exec(holder, "ROLLBACK");
        }
    }

    /** A WAL database is read immutable: a writer's locks do not stop the audit, and nothing changes. */
    @Test
    void aLockedWalDatabaseIsAuditedAndStaysAsItWas() throws Exception {
        Path db = SqliteTestFiles.database(dir, JournalMode.WAL, "locked-WAL.db");
        try (Connection holder = SqliteTestFiles.open(db)) {
            exec(holder, "PRAGMA locking_mode=EXCLUSIVE");
            exec(holder, "BEGIN EXCLUSIVE");
            exec(holder, "insert into t(v) values ('held')");
            Map<String, String> before = files(db);
            assertThat(SqliteAuditor.auditFile(db).settings().journalMode()).isEqualTo(JournalMode.WAL);
            assertThat(files(db)).isEqualTo(before);
            exec(holder, "ROLLBACK");
        }
    }

    /** A WAL database copied with its log and without its -shm (a backup, a killed writer's files moved). */
    @Test
    void aWalDatabaseWithALogAndNoShmIsAuditedWithoutCreatingOne() throws Exception {
        Path live = SqliteTestFiles.database(dir, JournalMode.WAL, "wal-log-source.db");
        Path copyDir = SqliteTestFiles.diskDir("wal-no-shm");
        Path db = copyDir.resolve("app.db");
        try (Connection writer = SqliteTestFiles.open(live)) {
            exec(writer, "PRAGMA wal_autocheckpoint=0");
            exec(writer, "insert into t(v) values ('in the log')");
            Files.copy(live, db);
            Files.copy(SqliteAuditor.sibling(live, "-wal"), SqliteAuditor.sibling(db, "-wal"));
        }
        Map<String, String> before = files(db);
        assertThat(before.get("-wal")).isNotEqualTo("absent");
        assertThat(before.get("-shm")).isEqualTo("absent");
        DurabilityAudit a = SqliteAuditor.auditFile(db);
        assertThat(a.settings().journalMode()).isEqualTo(JournalMode.WAL);
        assertThat(files(db)).as("database, -wal, -shm and -journal as they were").isEqualTo(before);
    }

    /** A live WAL database with its -wal and -shm: a plain read-only reader would write its read marks in the -shm. */
    @Test
    void aLiveWalDatabaseWithLogAndShmIsAuditedWithoutChangingEither() throws Exception {
        Path db = SqliteTestFiles.database(dir, JournalMode.WAL, "wal-live.db");
        try (Connection writer = SqliteTestFiles.open(db)) {
            exec(writer, "PRAGMA wal_autocheckpoint=0");
            exec(writer, "insert into t(v) values ('in the log')");
            Map<String, String> before = files(db);
            assertThat(before.get("-wal")).isNotEqualTo("absent");
            assertThat(before.get("-shm")).isNotEqualTo("absent");
            Thread.sleep(20); // an mtime change would show
            DurabilityAudit a = SqliteAuditor.auditFile(db);
            assertThat(a.settings().journalMode()).isEqualTo(JournalMode.WAL);
            assertThat(files(db)).as("database, -wal, -shm and -journal as they were").isEqualTo(before);
        }
    }

    /**
     * A rollback database with a hot journal (a writer stopped mid-transaction: here, its files copied
     * while it was) is not "in a read-only directory": the audit says what it is, and changes nothing.
     */
    @Test
    void aHotJournalIsNamedAsSuchAndLeftAsItWas() throws Exception {
        Path live = SqliteTestFiles.database(dir, JournalMode.DELETE, "hot-source.db");
        Path copyDir = SqliteTestFiles.diskDir("hot-journal");
        Path db = copyDir.resolve("app.db");
        try (Connection writer = SqliteTestFiles.open(live)) {
            exec(writer, "PRAGMA cache_size=2");
            exec(writer, "BEGIN");
            try (var ins = writer.prepareStatement("insert into t(v) values (?)")) {
                for (int i = 0; i < 200; i++) {
                    ins.setString(1, "x".repeat(4000));
                    ins.executeUpdate();
                }
            }
            // The cache spilled: the journal holds the original pages and the database has new ones.
            assertThat(Files.size(SqliteAuditor.sibling(live, "-journal"))).isPositive();
            Files.copy(live, db);
            Files.copy(SqliteAuditor.sibling(live, "-journal"), SqliteAuditor.sibling(db, "-journal"));
            exec(writer, "ROLLBACK");
        }
        Map<String, String> before = files(db);
        assertThatThrownBy(() -> SqliteAuditor.auditFile(db)).isInstanceOf(SqliteException.class)
                .hasMessageStartingWith("cannot audit " + db + " read-only: it has a hot journal (a -journal file holding"
                        + " a transaction that a writer did not finish: killed, crashed or power lost)")
                .hasMessageContaining("open it read-write once")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("directory is read-only"));
        assertThat(files(db)).isEqualTo(before);
    }

    /** Each of the database's files: its fingerprint (content and mtime), or "absent". */
    static Map<String, String> files(Path db) throws IOException {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
            Path f = SqliteAuditor.sibling(db, suffix);
            m.put(suffix, Files.exists(f) ? fingerprint(f) : "absent");
        }
        return m;
    }

    @ParameterizedTest(name = "read-only directory, journal_mode={0}")
    @EnumSource(value = JournalMode.class, names = {"DELETE", "WAL"})
    void aDatabaseInAReadOnlyDirectoryIsAuditedWithoutWriting(JournalMode mode) throws Exception {
        Requirements.requireRoot();
        Path mnt = SqliteTestFiles.diskDir("ro-" + mode);
        run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt.toString());
        try {
            Path db = SqliteTestFiles.database(mnt, mode);
            run("mount", "-o", "remount,ro", mnt.toString());
            List<String> before = listing(db);
            String print = fingerprint(db);
            DurabilityAudit a = SqliteAuditor.auditFile(db);
            assertThat(a.settings().journalMode()).isEqualTo(mode);
            assertThat(a.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(fingerprint(db)).isEqualTo(print);
            assertThat(listing(db)).isEqualTo(before);
        } finally {
            run("umount", mnt.toString());
        }
    }

    @Test
    void aWalDatabaseWithALogInAReadOnlyDirectoryIsAuditedWithoutItsShm() throws Exception {
        Requirements.requireRoot();
        Path mnt = SqliteTestFiles.diskDir("ro-wal-log");
        run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt.toString());
        try {
            Path db = SqliteTestFiles.database(mnt, JournalMode.WAL);
            Files.write(SqliteAuditor.sibling(db, "-wal"), new byte[0]);
            run("mount", "-o", "remount,ro", mnt.toString());
            Map<String, String> before = files(db);
            assertThat(SqliteAuditor.auditFile(db).settings().journalMode()).isEqualTo(JournalMode.WAL);
            assertThat(files(db)).isEqualTo(before);
        } finally {
            run("umount", mnt.toString());
        }
    }

    static List<String> listing(Path db) throws IOException {
        try (Stream<Path> s = Files.list(db.getParent())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(db.getFileName().toString())).sorted()
                    .toList();
        }
    }

    public static void run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
        }
    }
}

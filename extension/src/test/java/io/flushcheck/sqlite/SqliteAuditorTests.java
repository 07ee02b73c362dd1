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
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Audits of real connections and files on the checkout's disk. */
class SqliteAuditorTests {

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

    @ParameterizedTest(name = "locked database in journal_mode={0}")
    @EnumSource(value = JournalMode.class, names = {"DELETE", "WAL"})
    void aLockedDatabaseGetsOneClearErrorAndStaysAsItWas(JournalMode mode) throws Exception {
        Path db = SqliteTestFiles.database(dir, mode, "locked-" + mode + ".db");
        try (Connection holder = SqliteTestFiles.open(db)) {
            exec(holder, "PRAGMA locking_mode=EXCLUSIVE");
            exec(holder, "BEGIN EXCLUSIVE");
            exec(holder, "insert into t(v) values ('held')");
            String print = fingerprint(db);
            assertThatThrownBy(() -> SqliteAuditor.auditFile(db)).isInstanceOf(SqliteException.class)
                    .hasMessage(db + " is locked by another connection (SQLITE_BUSY after 1000 ms): audit it when no writer"
                            + " holds it, or audit the live connection");
            assertThat(fingerprint(db)).isEqualTo(print);
            exec(holder, "ROLLBACK");
        }
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
    void aWalDatabaseWithALogInAReadOnlyDirectoryGetsOneClearError() throws Exception {
        Requirements.requireRoot();
        Path mnt = SqliteTestFiles.diskDir("ro-wal-log");
        run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt.toString());
        try {
            Path db = SqliteTestFiles.database(mnt, JournalMode.WAL);
            Files.write(SqliteAuditor.sibling(db, "-wal"), new byte[0]);
            run("mount", "-o", "remount,ro", mnt.toString());
            String print = fingerprint(db);
            assertThatThrownBy(() -> SqliteAuditor.auditFile(db)).isInstanceOf(SqliteException.class)
                    .hasMessage(db + " is a WAL database in a read-only directory without its -shm file: SQLite cannot"
                            + " open it read-only there; audit a copy or the live connection");
            assertThat(fingerprint(db)).isEqualTo(print);
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

    static void run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
        }
    }
}

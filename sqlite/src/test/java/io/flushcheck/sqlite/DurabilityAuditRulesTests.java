package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.verdict.Verdict;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every journal_mode × synchronous pair against SQLite's documentation
 * (https://www.sqlite.org/pragma.html#pragma_synchronous, #pragma_journal_mode, https://www.sqlite.org/wal.html).
 */
class DurabilityAuditRulesTests {

    static final Survival Y = Survival.YES;
    static final Survival ROLLBACK = Survival.RECENT_COMMITS_MAY_ROLL_BACK;
    static final Survival CORRUPT = Survival.MAY_CORRUPT;

    /** journal, synchronous, application crash, power loss: as documented. */
    static Stream<Arguments> documentedMatrix() {
        return Stream.of(
                // "OFF ... the database might become corrupted if the operating system crashes or the computer loses power"
                Arguments.of(JournalMode.DELETE, Synchronous.OFF, Y, CORRUPT),
                // NORMAL: "very small (though non-zero) chance that a power failure ... could corrupt" in DELETE mode
                Arguments.of(JournalMode.DELETE, Synchronous.NORMAL, Y, ROLLBACK),
                // FULL in DELETE mode: EXTRA adds the directory sync "after that journal is unlinked": FULL is not durable
                Arguments.of(JournalMode.DELETE, Synchronous.FULL, Y, ROLLBACK),
                Arguments.of(JournalMode.DELETE, Synchronous.EXTRA, Y, Y),
                // TRUNCATE and PERSIST: EXTRA differs from FULL "in DELETE mode" only; their reset is synced
                Arguments.of(JournalMode.TRUNCATE, Synchronous.OFF, Y, CORRUPT),
                Arguments.of(JournalMode.TRUNCATE, Synchronous.NORMAL, Y, ROLLBACK),
                Arguments.of(JournalMode.TRUNCATE, Synchronous.FULL, Y, Y),
                Arguments.of(JournalMode.TRUNCATE, Synchronous.EXTRA, Y, Y),
                Arguments.of(JournalMode.PERSIST, Synchronous.OFF, Y, CORRUPT),
                Arguments.of(JournalMode.PERSIST, Synchronous.NORMAL, Y, ROLLBACK),
                Arguments.of(JournalMode.PERSIST, Synchronous.FULL, Y, Y),
                Arguments.of(JournalMode.PERSIST, Synchronous.EXTRA, Y, Y),
                // WAL: "always consistent with synchronous=NORMAL, but ... might roll back following a power loss";
                // FULL: "WAL mode ... is durable"
                Arguments.of(JournalMode.WAL, Synchronous.OFF, Y, CORRUPT),
                Arguments.of(JournalMode.WAL, Synchronous.NORMAL, Y, ROLLBACK),
                Arguments.of(JournalMode.WAL, Synchronous.FULL, Y, Y),
                Arguments.of(JournalMode.WAL, Synchronous.EXTRA, Y, Y),
                // MEMORY and OFF journals: "if the application ... crashes in the middle of a transaction ... the
                // database file will very likely go corrupt"
                Arguments.of(JournalMode.MEMORY, Synchronous.OFF, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.MEMORY, Synchronous.NORMAL, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.MEMORY, Synchronous.FULL, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.MEMORY, Synchronous.EXTRA, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.OFF, Synchronous.OFF, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.OFF, Synchronous.NORMAL, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.OFF, Synchronous.FULL, CORRUPT, CORRUPT),
                Arguments.of(JournalMode.OFF, Synchronous.EXTRA, CORRUPT, CORRUPT));
    }

    @Test
    void theMatrixCoversEveryPair() {
        assertThat(documentedMatrix().count()).isEqualTo((long) JournalMode.values().length * Synchronous.values().length);
    }

    @ParameterizedTest(name = "journal_mode={0} synchronous={1}: crash {2}, power loss {3}")
    @MethodSource("documentedMatrix")
    void answersFollowSqlitesDocumentation(JournalMode j, Synchronous s, Survival crash, Survival power) {
        DurabilityAudit a = DurabilityAudit.judge("test", SqliteSettings.of(j, s, false), "/data", Verdict.REAL_FLUSH,
                "syncs reached vda", false, false);
        assertThat(a.applicationCrash().survival()).isEqualTo(crash);
        assertThat(a.powerLoss().survival()).isEqualTo(power);
        assertThat(a.powerLoss().reason()).contains("journal_mode=" + j).contains("synchronous=" + s);
        assertThat(a.powerLossDurable()).isEqualTo(power == Survival.YES);
    }

    @ParameterizedTest(name = "NO_REAL_FLUSH makes journal_mode={0} synchronous={1} lose commits")
    @MethodSource("documentedMatrix")
    void storageWithoutRealFlushIsNeverPowerLossDurable(JournalMode j, Synchronous s, Survival crash, Survival power) {
        DurabilityAudit a = DurabilityAudit.judge("test", SqliteSettings.of(j, s, false), "/dev/shm",
                Verdict.NO_REAL_FLUSH, "/dev/shm is on tmpfs", false, false);
        assertThat(a.powerLoss().survives()).isFalse();
        assertThat(a.applicationCrash().survival()).isEqualTo(crash);
        if (power == Survival.YES) {
            assertThat(a.powerLoss().survival()).isEqualTo(Survival.NO);
            assertThat(a.powerLoss().reason()).contains("/dev/shm is on tmpfs");
        }
    }

    @Test
    void unknownStorageLeavesDurableSettingsUnknown() {
        DurabilityAudit a = DurabilityAudit.judge("test", SqliteSettings.of(JournalMode.WAL, Synchronous.FULL, false),
                "/data", Verdict.UNKNOWN, "no device counters", false, false);
        assertThat(a.powerLoss().survival()).isEqualTo(Survival.UNKNOWN);
        assertThat(a.powerLoss().reason()).contains("unknown: no device counters");
    }

    @Test
    void walOnANetworkFilesystemIsAnError() {
        DurabilityAudit a = DurabilityAudit.judge("test", SqliteSettings.of(JournalMode.WAL, Synchronous.FULL, false),
                "/mnt/nas", Verdict.REAL_FLUSH, "ok", true, false);
        assertThat(a.findings()).anySatisfy(f -> {
            assertThat(f.severity()).isEqualTo(AuditFinding.Severity.ERROR);
            assertThat(f.code()).isEqualTo("WAL_ON_NETWORK_FILESYSTEM");
        });
        assertThat(a.powerLossDurable()).isFalse();
        DurabilityAudit rollback = DurabilityAudit.judge("test",
                SqliteSettings.of(JournalMode.DELETE, Synchronous.EXTRA, false), "/mnt/nas", Verdict.REAL_FLUSH, "ok", true, false);
        assertThat(rollback.findings()).noneMatch(f -> f.severity() == AuditFinding.Severity.ERROR);
    }

    @Test
    void onMacOsSynchronousWithoutFullfsyncIsNoDriveFlush() {
        DurabilityAudit plain = DurabilityAudit.judge("test", SqliteSettings.of(JournalMode.WAL, Synchronous.FULL, false),
                "/Users/me", Verdict.REAL_FLUSH, "ok", false, true);
        assertThat(plain.powerLoss().survival()).isEqualTo(Survival.NO);
        assertThat(plain.powerLoss().reason()).contains("fullfsync=1");
        DurabilityAudit full = DurabilityAudit.judge("test", SqliteSettings.of(JournalMode.WAL, Synchronous.FULL, true),
                "/Users/me", Verdict.REAL_FLUSH, "ok", false, true);
        assertThat(full.powerLoss().survival()).isEqualTo(Survival.YES);
    }

    @Test
    void onLinuxFullfsyncIsNotedAsIgnored() {
        DurabilityAudit a = DurabilityAudit.judge("test", SqliteSettings.of(JournalMode.WAL, Synchronous.FULL, true),
                "/data", Verdict.REAL_FLUSH, "ok", false, false);
        assertThat(a.findings()).anyMatch(f -> f.code().equals("FULLFSYNC_IGNORED"));
        assertThat(a.powerLoss().survival()).isEqualTo(Survival.YES);
    }

    @Test
    void anInMemoryDatabaseSurvivesNothing() {
        SqliteSettings s = new SqliteSettings(JournalMode.MEMORY, Synchronous.FULL, false, false, null, "3");
        DurabilityAudit a = DurabilityAudit.judge("test", s, null, Verdict.UNKNOWN, "not checked", false, false);
        assertThat(a.applicationCrash().survival()).isEqualTo(Survival.NO);
        assertThat(a.powerLoss().survival()).isEqualTo(Survival.NO);
    }
}

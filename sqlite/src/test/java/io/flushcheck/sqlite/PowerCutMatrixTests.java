package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/** SQLite's documented durability, by cutting the power under it: the shape SQLite's documentation promises. */
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutMatrixTests {

    private static final int CUTS = 3;

    @Test
    void fullAndExtraLoseNothingNormalLosesCommitsAndNoCutCorrupts() throws Exception {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        assertTheDocumentedShape(DiskModel.BLOCK);
    }

    @Test
    void theFileModelShowsTheSameShapeFromSqlitesOwnSyncs() throws Exception {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        assertTheDocumentedShape(DiskModel.FILE);
    }

    private static void assertTheDocumentedShape(DiskModel model) throws Exception {
        Path work = Path.of("/dev/shm", "flushcheck-powercut-matrix-" + ProcessHandle.current().pid());
        List<PowerCutMatrix.Row> rows = PowerCutMatrix.run(work, model, List.of(JournalMode.DELETE, JournalMode.WAL),
                List.of(Synchronous.NORMAL, Synchronous.FULL, Synchronous.EXTRA), CUTS, 2026, (m, s, i, n, seed, a, v, ok) -> { });
        System.out.print(PowerCutMatrix.table(rows));
        assertThat(rows).hasSize(6).allSatisfy(r -> {
            assertThat(r.cuts()).isEqualTo(CUTS);
            assertThat(r.acknowledged()).isGreaterThanOrEqualTo((long) CUTS * PowerCutMatrix.MIN_COMMITS);
            assertThat(r.corrupt()).as("%s", r).isZero();
        });
        assertThat(row(rows, JournalMode.WAL, Synchronous.FULL).lost()).isZero();
        assertThat(row(rows, JournalMode.WAL, Synchronous.EXTRA).lost()).isZero();
        assertThat(row(rows, JournalMode.DELETE, Synchronous.EXTRA).lost()).isZero();
        assertThat(row(rows, JournalMode.DELETE, Synchronous.FULL).maxLostInOneCut()).isLessThanOrEqualTo(1);
        assertThat(row(rows, JournalMode.WAL, Synchronous.NORMAL).cutsThatLost()).isPositive();
        assertThat(work).doesNotExist();
    }

    private static PowerCutMatrix.Row row(List<PowerCutMatrix.Row> rows, JournalMode m, Synchronous s) {
        return rows.stream().filter(r -> r.journalMode() == m && r.synchronous() == s).findFirst().orElseThrow();
    }
}

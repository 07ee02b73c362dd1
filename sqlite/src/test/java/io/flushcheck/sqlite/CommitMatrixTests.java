package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.probe.ProbeLock;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.testing.HeldProbeLock;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The matrix on the checkout's disk shows the orderings SQLite's documentation implies (WAL+NORMAL
 * syncs least, FULL costs a flush per commit: https://www.sqlite.org/pragma.html#pragma_synchronous,
 * https://www.sqlite.org/atomiccommit.html). Flush counts are device-wide,
 * so other processes' I/O can disturb one run: an ordering that fails is measured again (three runs
 * at most) before the test fails, and timing assertions use generous ratios.
 */
public class CommitMatrixTests {

    static final int ATTEMPTS = 3;

    static MatrixOptions small() {
        return MatrixOptions.defaults()
                .withJournalModes(List.of(JournalMode.DELETE, JournalMode.WAL))
                .withSynchronous(List.of(Synchronous.OFF, Synchronous.NORMAL, Synchronous.FULL))
                .withFullfsync(List.of(false))
                .withBatches(List.of(1, 1000))
                .withRows(200).withMinCommits(5)
                .withMaxCellSeconds(4).withMaxTotalSeconds(40)
                .withCheckPlan(ProbePlan.verification().withRounds(32));
    }

    @Test
    void theMatrixShowsTheDocumentedOrderingsOnThisDisk() throws IOException {
        Path dir = SqliteTestFiles.diskDir("matrix");
        List<String> failures = new ArrayList<>();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            CommitMatrix m = CommitMatrix.run(dir, small(), MatrixListener.NONE);
            assertThat(m.verdict()).as(m.check().judgement().summary()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(m.cells()).hasSize(12);
            assertThat(m.skipped()).isEmpty();
            assertThat(leftovers(dir)).as("every database, journal, WAL and SHM file is removed").isEmpty();
            List<String> wrong = orderings(m);
            if (wrong.isEmpty()) {
                return;
            }
            failures.add("attempt " + attempt + ": " + String.join("; ", wrong) + "\n" + m.table());
        }
        throw new AssertionError("the orderings failed " + ATTEMPTS + " times:\n" + String.join("\n", failures));
    }

    /**
     * The journal modes besides DELETE and WAL. TRUNCATE and PERSIST keep a rollback journal, synced
     * before the database, so they flush at least twice per commit; MEMORY and OFF keep no journal on
     * disk, so a commit syncs the database file alone: about one flush. PERSIST leaves its journal file
     * in place by design, and the matrix must still remove it.
     */
    @Test
    void theOtherJournalModesFlushAsTheirDesignsSay() throws IOException {
        Path dir = SqliteTestFiles.diskDir("matrix-modes");
        List<JournalMode> modes = List.of(JournalMode.TRUNCATE, JournalMode.PERSIST, JournalMode.MEMORY, JournalMode.OFF);
        MatrixOptions options = small().withJournalModes(modes).withSynchronous(List.of(Synchronous.FULL))
                .withBatches(List.of(1));
        List<String> failures = new ArrayList<>();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            CommitMatrix m = CommitMatrix.run(dir, options, MatrixListener.NONE);
            assertThat(m.cells()).hasSize(4);
            assertThat(m.skipped()).isEmpty();
            assertThat(leftovers(dir)).as("PERSIST's journal is removed too").isEmpty();
            List<String> wrong = new ArrayList<>();
            for (JournalMode journaled : List.of(JournalMode.TRUNCATE, JournalMode.PERSIST)) {
                CommitCell c = m.require(journaled, Synchronous.FULL, false, 1);
                check(wrong, c.flushesPerCommit() >= 2, "two or more flushes per commit for " + c.label(), c, c);
            }
            for (JournalMode unjournaled : List.of(JournalMode.MEMORY, JournalMode.OFF)) {
                CommitCell c = m.require(unjournaled, Synchronous.FULL, false, 1);
                check(wrong, c.flushesPerCommit() >= 0.8 && c.flushesPerCommit() <= 1.5,
                        "about one flush per commit for " + c.label(), c, c);
            }
            if (wrong.isEmpty()) {
                return;
            }
            failures.add("attempt " + attempt + ": " + String.join("; ", wrong) + "\n" + m.table());
        }
        throw new AssertionError("the flush counts failed " + ATTEMPTS + " times:\n" + String.join("\n", failures));
    }

    /** What does not hold in one run, as sentences; empty when all holds. */
    static List<String> orderings(CommitMatrix m) {
        List<String> wrong = new ArrayList<>();
        CommitCell deleteFull = m.require(JournalMode.DELETE, Synchronous.FULL, false, 1);
        CommitCell walFull = m.require(JournalMode.WAL, Synchronous.FULL, false, 1);
        CommitCell walNormal = m.require(JournalMode.WAL, Synchronous.NORMAL, false, 1);
        CommitCell walOff = m.require(JournalMode.WAL, Synchronous.OFF, false, 1);
        CommitCell deleteFullBatch = m.require(JournalMode.DELETE, Synchronous.FULL, false, 1000);
        CommitCell walFullBatch = m.require(JournalMode.WAL, Synchronous.FULL, false, 1000);
        check(wrong, walFull.rowsPerSecond() > deleteFull.rowsPerSecond(), "WAL+FULL faster per row than DELETE+FULL",
                walFull, deleteFull);
        check(wrong, deleteFullBatch.rowsPerSecond() >= 50 * deleteFull.rowsPerSecond(),
                "DELETE+FULL batch 1000 at least 50x single rows", deleteFullBatch, deleteFull);
        // WAL pays one flush per commit; where a flush is as cheap as ~300 µs (this virtual disk on a quiet
        // day), batching 1000 rows gains 25-60x, bounded by the CPU per row: 50x is DELETE's to show.
        check(wrong, walFullBatch.rowsPerSecond() >= 10 * walFull.rowsPerSecond(),
                "WAL+FULL batch 1000 at least 10x single rows", walFullBatch, walFull);
        // "close to OFF": within a factor of 4 on a shared 2-core machine, and far from FULL.
        check(wrong, walNormal.rowsPerSecond() >= 0.25 * walOff.rowsPerSecond(), "WAL+NORMAL close to OFF", walNormal, walOff);
        check(wrong, walNormal.rowsPerSecond() >= 5 * walFull.rowsPerSecond(), "WAL+NORMAL far faster than WAL+FULL",
                walNormal, walFull);
        check(wrong, walFull.flushesPerCommit() >= 0.8 && walFull.flushesPerCommit() <= 1.5,
                "about one flush per commit for WAL+FULL", walFull, walFull);
        check(wrong, deleteFull.flushesPerCommit() >= 2, "two or more flushes per commit for DELETE+FULL", deleteFull,
                deleteFull);
        check(wrong, walNormal.flushesPerCommit() <= 0.1, "almost no flushes per commit for WAL+NORMAL", walNormal,
                walNormal);
        check(wrong, walOff.flushesPerCommit() <= 0.1, "almost no flushes per commit for WAL+OFF", walOff, walOff);
        return wrong;
    }

    private static void check(List<String> wrong, boolean holds, String what, CommitCell a, CommitCell b) {
        if (!holds) {
            wrong.add(what + " does not hold: " + describe(a) + (a == b ? "" : " vs " + describe(b)));
        }
    }

    private static String describe(CommitCell c) {
        return String.format("%s %.0f rows/s %.2f flushes/commit", c.label(), c.rowsPerSecond(), c.flushesPerCommit());
    }

    @Test
    void onANobarrierLoopMountNoFlushReachesTheDiskWhateverTheDiskDoes() throws Exception {
        Mounts.requireMountTools();
        Path base = SqliteTestFiles.diskDir("nobarrier");
        try (Mounts mounts = new Mounts()) {
            Path dir = base.resolve("mnt");
            String loop = mounts.loopExt4(base.resolve("nobarrier.img"), 64, dir, "nobarrier");
            String loopName = Path.of(loop).getFileName().toString();
            MatrixOptions o = small().withJournalModes(List.of(JournalMode.WAL)).withSynchronous(List.of(Synchronous.FULL))
                    .withBatches(List.of(1)).withRows(200);
            // The disk under the image is kept busy with flushes of its own meanwhile.
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            Thread busy = new Thread(() -> fsyncUntil(base.resolve("busy"), done), "disk-busy");
            busy.start();
            CommitMatrix m;
            try {
                m = CommitMatrix.run(dir, o, MatrixListener.NONE);
            } finally {
                done.set(true);
                busy.join();
            }
            assertThat(m.verdict()).as(m.check().judgement().summary()).isEqualTo(Verdict.NO_REAL_FLUSH);
            // The loop device first, then the disk under its backing file: the disk's own flushes
            // (its journal, other processes) are no flushes of these commits.
            assertThat(m.devices()).hasSizeGreaterThanOrEqualTo(2).first().isEqualTo(loopName);
            CommitCell walFull = m.require(JournalMode.WAL, Synchronous.FULL, false, 1);
            assertThat(walFull.commits()).isEqualTo(200);
            assertThat(walFull.flushesPerCommit()).as(m.table()).isCloseTo(0.0, org.assertj.core.data.Offset.offset(0.01));
            assertThat(m.notes()).anyMatch(n -> n.startsWith("flushes and KiB are those that reached the disk: the fewest"
                    + " counted at any level of " + loopName + ", "));
            assertThat(leftovers(dir)).isEmpty();
        }
    }

    @Test
    void withoutACheckPlanTheCheckIsSkippedAndTheVerdictIsUnknown() throws IOException {
        Path dir = SqliteTestFiles.diskDir("unchecked");
        MatrixOptions o = small().withJournalModes(List.of(JournalMode.WAL)).withSynchronous(List.of(Synchronous.FULL))
                .withBatches(List.of(1)).withRows(20).withCheckPlan(null);
        CommitMatrix m = CommitMatrix.run(dir, o, MatrixListener.NONE);
        assertThat(m.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(m.check().costs()).isEmpty();
        assertThat(m.check().judgement().findings()).extracting(Object::toString).containsExactly(
                "NOT_PROBED: not checked: the matrix options have no check plan, so " + dir + " has no verdict");
        assertThat(m.notes()).contains("the directory was not checked (no check plan): whether these flushes reach"
                + " stable storage is UNKNOWN");
        // The devices are still counted: WAL+FULL on this disk flushes.
        assertThat(m.devices()).isNotEmpty();
        assertThat(m.require(JournalMode.WAL, Synchronous.FULL, false, 1).flushesPerCommit()).isGreaterThan(0.5);
        assertThat(m.document().verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(leftovers(dir)).isEmpty();
    }

    @Test
    void theWholeMatrixHoldsTheProbeLockThatTheJUnitExtensionsTake() throws Exception {
        Path dir = SqliteTestFiles.diskDir("lock");
        MatrixOptions o = small().withJournalModes(List.of(JournalMode.WAL)).withSynchronous(List.of(Synchronous.OFF))
                .withBatches(List.of(1)).withRows(20);
        // Another measurement holds the lock: the matrix does not start, not even its check.
        HeldProbeLock other = HeldProbeLock.take();
        List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
        MatrixListener listener = new MatrixListener() {
            @Override
            public void checking(Path d) {
                events.add("checking");
            }

            @Override
            public void cellStarted(int index, int total, String label) {
                // Meanwhile no other measurement gets the lock.
                var probe = java.util.concurrent.CompletableFuture.supplyAsync(() -> ProbeLock.exclusively(() -> "other"));
                try {
                    events.add(probe.get(300, java.util.concurrent.TimeUnit.MILLISECONDS));
                } catch (java.util.concurrent.TimeoutException e) {
                    events.add("locked during " + label);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        var matrix = java.util.concurrent.CompletableFuture.supplyAsync(() -> CommitMatrix.run(dir, o, listener));
        Thread.sleep(500);
        assertThat(events).isEmpty();
        assertThat(matrix).isNotDone();
        other.release();
        CommitMatrix m = matrix.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(m.cells()).hasSize(1);
        assertThat(events).containsExactly("checking", "locked during WAL/OFF/fullfsync=0/batch=1");
        assertThat(leftovers(dir)).isEmpty();
    }

    /** Appends and fsyncs a file until done: flushes on the disk that the matrix must not count. */
    private static void fsyncUntil(Path file, java.util.concurrent.atomic.AtomicBoolean done) {
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.APPEND)) {
            while (!done.get()) {
                ch.write(java.nio.ByteBuffer.wrap(new byte[4096]));
                ch.force(true);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theTimeLimitsBoundTheRunAndListWhatWasSkipped() throws IOException {
        Path dir = SqliteTestFiles.diskDir("limits");
        MatrixOptions o = small().withJournalModes(List.of(JournalMode.DELETE)).withSynchronous(List.of(Synchronous.EXTRA))
                .withBatches(List.of(1)).withRows(1_000_000).withMaxCellSeconds(0.5).withMaxTotalSeconds(0.4)
                .withFullfsync(List.of(false, true));
        List<String> events = new ArrayList<>();
        CommitMatrix m = CommitMatrix.run(dir, o, new MatrixListener() {
            @Override
            public void cellStarted(int index, int total, String label) {
                events.add("start " + (index + 1) + "/" + total + " " + label);
            }

            @Override
            public void timeLimitReached(int skipped) {
                events.add("limit " + skipped);
            }
        });
        // The check takes some of the 0.4 s; the first cell runs when it started in time, else none do.
        assertThat(m.cells().size() + m.skipped().size()).isEqualTo(2);
        assertThat(m.skipped()).contains("DELETE/EXTRA/fullfsync=1/batch=1");
        assertThat(m.cells()).allSatisfy(c -> {
            assertThat(c.truncated()).isTrue();
            assertThat(c.seconds()).isLessThan(2.0);
        });
        assertThat(events).contains("limit " + m.skipped().size());
        assertThat(m.notes()).anyMatch(n -> n.contains("skipped: the total limit of 0.4 s was reached"));
        assertThat(m.notes()).anyMatch(n -> n.startsWith("fullfsync changes nothing on Linux"));
        assertThat(leftovers(dir)).isEmpty();
    }

    @Test
    void aHugeTimeLimitMeansNoLimitRatherThanAnOverflowThatSkipsEveryCell() throws IOException {
        Path dir = SqliteTestFiles.diskDir("huge-limit");
        MatrixOptions o = small().withJournalModes(List.of(JournalMode.WAL)).withSynchronous(List.of(Synchronous.OFF))
                .withBatches(List.of(1)).withRows(20).withMaxTotalSeconds(1e10)
                .withMaxCellSeconds(Double.POSITIVE_INFINITY);
        CommitMatrix m = CommitMatrix.run(dir, o, MatrixListener.NONE);
        assertThat(m.skipped()).isEmpty();
        assertThat(m.cells()).singleElement().satisfies(c -> {
            assertThat(c.rows()).isEqualTo(20);
            assertThat(c.truncated()).isFalse();
        });
    }

    @Test
    void theJsonHasTheDocumentedRowFields() throws IOException {
        Path dir = SqliteTestFiles.diskDir("json");
        MatrixOptions o = small().withJournalModes(List.of(JournalMode.WAL)).withSynchronous(List.of(Synchronous.FULL))
                .withBatches(List.of(1)).withRows(20);
        CommitMatrix m = CommitMatrix.run(dir, o, MatrixListener.NONE);
        var json = MiniJson.object(MiniJson.parse(m.toJson()));
        assertThat(json).containsKeys("rows", "verdict", "notes");
        var row = MiniJson.object(MiniJson.array(json.get("rows")).get(0));
        assertThat(row).containsKeys("journalMode", "synchronous", "fullfsync", "batch", "rowsPerSecond",
                "commitsPerSecond", "flushesPerCommit", "kibPerCommit");
        assertThat(row.get("journalMode")).isEqualTo("WAL");
        assertThat(((Number) row.get("commits")).longValue()).isEqualTo(m.cells().get(0).commits());
    }

    @Test
    void aReadOnlyDirectoryGetsTheVerdictItsFactsAllowAndAProbeFailedFindingWithTheErrno() throws Exception {
        Requirements.requireRoot();
        Path mnt = SqliteTestFiles.diskDir("ro-matrix");
        SqliteAuditorTests.run("mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", mnt.toString());
        try {
            CommitMatrix m = CommitMatrix.run(mnt, small(), MatrixListener.NONE);
            assertThat(m.verdict()).as("tmpfs: the facts decide").isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(m.cells()).isEmpty();
            assertThat(m.failure()).startsWith("cannot create an SQLite database in " + mnt + ": open(" + mnt + "/.flushcheck-")
                    .endsWith(".db) failed: Read-only file system (errno 30)");
            assertThat(m.check().judgement().findings()).anySatisfy(f -> {
                assertThat(f.code()).isEqualTo(io.flushcheck.verdict.FindingCode.PROBE_FAILED);
                assertThat(f.message()).isEqualTo(m.failure());
                assertThat(f.evidence()).containsEntry("errno", "30");
            });
            assertThat(m.notes()).contains("0 of 12 cells ran: " + m.failure());
            assertThatThrownBy(() -> m.require(JournalMode.WAL, Synchronous.FULL, false, 1))
                    .hasMessage("the matrix has no cell WAL/FULL/fullfsync=0/batch=1: " + m.failure());
        } finally {
            SqliteAuditorTests.run("umount", mnt.toString());
        }
    }

    @Test
    void optionsRejectBadValuesWithTheRange() {
        assertThatThrownBy(() -> MatrixOptions.defaults().withBatches(List.of(0)))
                .hasMessage("batch 0 is out of range: use 1 to 1000000 rows per transaction");
        assertThatThrownBy(() -> JournalMode.parse("wall"))
                .hasMessage("unknown journal mode 'wall': use one of DELETE, TRUNCATE, PERSIST, MEMORY, WAL, OFF");
        assertThat(Synchronous.parse("2")).isEqualTo(Synchronous.FULL);
    }

    public static List<Path> leftovers(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".flushcheck-")).toList();
        }
    }
}

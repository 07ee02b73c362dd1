package io.flushcheck.cli.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess;
import io.flushcheck.cli.Main;
import io.flushcheck.sqlite.CommitMatrix;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.MatrixListener;
import io.flushcheck.sqlite.MatrixOptions;
import io.flushcheck.sqlite.SqliteAuditorTests;
import io.flushcheck.sqlite.SqliteTestFiles;
import io.flushcheck.sqlite.Synchronous;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The matrix's databases follow the rules of every flushcheck file: PID in the name, 0600 (their -journal,
 * -wal and -shm too), removed on SIGTERM and SIGINT, swept by a later run after SIGKILL. And a directory
 * that cannot take a database gets a verdict, as the probe gives one, not a usage error.
 */
class SqliteFileHygieneTests {

    static List<String> ours(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".flushcheck-")).sorted().toList();
        }
    }

    static MatrixOptions oneCellEach() {
        return MatrixOptions.defaults().withJournalModes(List.of(JournalMode.DELETE, JournalMode.WAL))
                .withSynchronous(List.of(Synchronous.FULL)).withFullfsync(List.of(false)).withBatches(List.of(1))
                .withRows(300).withCheckPlan(null);
    }

    @Test
    void everyDatabaseJournalWalAndShmFileIsPrivateAndNamedWithThePid() throws Exception {
        Path dir = SqliteTestFiles.diskDir("private");
        Set<String> seen = new TreeSet<>();
        CompletableFuture<CommitMatrix> run = CompletableFuture.supplyAsync(() -> CommitMatrix.run(dir, oneCellEach(),
                MatrixListener.NONE));
        while (!run.isDone()) {
            for (String n : ours(dir)) {
                try {
                    String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(n),
                            LinkOption.NOFOLLOW_LINKS));
                    seen.add(n.replaceAll("^\\.flushcheck-" + ProcessHandle.current().pid() + "-sqlite-[0-9a-f]{12}\\.db",
                            "<pid>.db") + " " + perms);
                } catch (IOException e) {
                    // removed meanwhile
                }
            }
        }
        assertThat(run.get().cells()).hasSize(2);
        assertThat(seen).as("every file seen while the matrix ran").contains("<pid>.db rw-------",
                "<pid>.db-journal rw-------", "<pid>.db-wal rw-------", "<pid>.db-shm rw-------")
                .allSatisfy(s -> assertThat(s).matches("<pid>\\.db(-journal|-wal|-shm)? rw-------"));
        assertThat(ours(dir)).isEmpty();
    }

    @Test
    void sigtermAndSigintDuringACellLeaveNoFile() throws Exception {
        for (String sig : List.of("TERM", "INT")) {
            Path dir = SqliteTestFiles.diskDir("signal-" + sig);
            Process p = start(dir, "--quiet", "--journal-modes", "WAL", "--synchronous", "FULL", "--fullfsync", "0",
                    "--batches", "1", "--rows", "1000000", "--max-cell-seconds", "60");
            try {
                awaitDatabase(p, dir);
                Thread.sleep(200);
                assertThat(new ProcessBuilder("kill", "-" + sig, String.valueOf(p.pid())).start().waitFor()).isZero();
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue()).isEqualTo(sig.equals("TERM") ? 143 : 130);
            } finally {
                p.destroyForcibly().waitFor();
            }
            assertThat(ours(dir)).as("after SIG" + sig).isEmpty();
        }
    }

    @Test
    void aLaterRunRemovesTheDatabasesOfAKilledOneAndSaysSo() throws Exception {
        Path dir = SqliteTestFiles.diskDir("sigkill");
        Process p = start(dir, "--quiet", "--journal-modes", "WAL", "--synchronous", "FULL", "--fullfsync", "0",
                "--batches", "1", "--rows", "1000000", "--max-cell-seconds", "60");
        try {
            awaitDatabase(p, dir);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ours(dir).size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(5); // the -wal and -shm too
            }
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        List<String> left = ours(dir);
        assertThat(left).as("SIGKILL leaves the database, its -wal and -shm").hasSize(3);
        InProcess.Run r = InProcess.run("sqlite", "--quiet", "--journal-modes", "WAL", "--synchronous",
                "OFF", "--fullfsync", "0", "--batches", "1", "--rows", "20", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).isEqualTo("flushcheck sqlite: removed 3 files in " + dir + " left by flushcheck processes that"
                + " no longer run (PID " + p.pid() + " not alive; files of live PIDs are left alone): "
                + String.join(", ", left) + "\n");
        assertThat(r.out()).contains("note: removed 3 files in " + dir);
        assertThat(ours(dir)).isEmpty();
    }

    @Test
    void onTmpfsTheProgressSaysFlushesAreNotCountedRatherThanNaN() throws Exception {
        Path shm = Path.of("/dev/shm");
        Requirements.require(Files.isDirectory(shm) && Files.isWritable(shm), "a writable /dev/shm (tmpfs)");
        Path dir = Files.createTempDirectory(shm, "flushcheck-sqlite");
        try {
            InProcess.Run r = InProcess.run("sqlite", "--journal-modes", "WAL", "--synchronous", "FULL",
                    "--fullfsync", "0", "--batches", "1", "--rows", "20", dir.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.err()).doesNotContain("NaN").containsPattern(
                    "flushcheck sqlite: \\[1/1\\] WAL/FULL/fullfsync=0/batch=1: [0-9,]+ rows/s, flushes not counted \\(no device counters here\\)\n");
        } finally {
            Files.delete(dir);
        }
    }

    /** A disk directory bind-mounted read-only: the facts are a disk's, the probe fails with EROFS. */
    @Test
    void aReadOnlyDirectoryGetsAVerdictAndTheErrnoNotAUsageError() throws Exception {
        Requirements.requireRoot();
        Path base = SqliteTestFiles.diskDir("ro-bind");
        Path mnt = Files.createDirectories(base.resolve("mnt"));
        SqliteAuditorTests.run("mount", "--bind", base.toString(), mnt.toString());
        try {
            SqliteAuditorTests.run("mount", "-o", "remount,bind,ro", mnt.toString());
            InProcess.Run r = InProcess.run("sqlite", "--json", "--quiet", "--journal-modes", "WAL",
                    "--synchronous", "FULL", "--fullfsync", "0", "--batches", "1", "--rows", "20", mnt.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
            assertThat(json.get("verdict")).isEqualTo("UNKNOWN");
            assertThat((String) json.get("verdictSummary")).contains("Read-only file system (errno 30)");
            assertThat((String) json.get("failure")).startsWith("cannot create an SQLite database in " + mnt + ": open(")
                    .endsWith("failed: Read-only file system (errno 30)");
            assertThat(MiniJson.array(json.get("rows"))).isEmpty();
        } finally {
            SqliteAuditorTests.run("umount", mnt.toString());
        }
        assertThat(ours(base)).isEmpty();
    }

    @Test
    void aFullDirectoryGetsTheVerdictItsFactsAllowAndSaysTheDiskIsFull() throws Exception {
        Requirements.requireRoot();
        Path mnt = SqliteTestFiles.diskDir("full");
        SqliteAuditorTests.run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt.toString());
        try {
            try (var out = Files.newOutputStream(mnt.resolve("filler"))) {
                byte[] block = new byte[4096];
                while (true) {
                    out.write(block);
                    out.flush();
                }
            } catch (IOException full) {
                // the tmpfs is full
            }
            InProcess.Run r = InProcess.run("sqlite", "--journal-modes", "WAL,DELETE",
                    "--synchronous", "FULL", "--fullfsync", "0", "--batches", "1", "--rows", "20", mnt.toString());
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out()).contains("verdict: NO_REAL_FLUSH").contains("note: 0 of 2 cells ran: cannot write an"
                    + " SQLite database in " + mnt + " (WAL/FULL/fullfsync=0/batch=1): the disk is full (");
            assertThat(r.err()).contains("flushcheck sqlite: [1/2] cannot write an SQLite database in " + mnt);
            assertThat(ours(mnt)).isEmpty();
        } finally {
            SqliteAuditorTests.run("umount", mnt.toString());
        }
    }

    private static Process start(Path dir, String... args) throws IOException {
        List<String> a = new ArrayList<>(List.of("sqlite"));
        a.addAll(List.of(args));
        a.add(dir.toString());
        return new ProcessBuilder(ChildJvm.withDefaultSignals(ChildJvm.command(List.of(), Main.class.getName(), a)))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void awaitDatabase(Process p, Path dir) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (ours(dir).stream().anyMatch(n -> n.endsWith(".db"))) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no database of the child appeared in " + dir + " (alive: " + p.isAlive() + ")");
    }
}

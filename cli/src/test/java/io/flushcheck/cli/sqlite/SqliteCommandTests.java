package io.flushcheck.cli.sqlite;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.cli.Main;
import io.flushcheck.sqlite.CommitMatrixTests;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.SqliteTestFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code flushcheck sqlite} through the command's entry point. */
class SqliteCommandTests {

    @Test
    void printsTheMatrixAsATableWithProgressOnStderr() throws Exception {
        Path dir = SqliteTestFiles.diskDir("cli");
        Run r = run("sqlite", "--journal-modes", "DELETE,WAL", "--synchronous", "FULL", "--batches", "1",
                "--rows", "20", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("journal sync fullfsync batch rows/s commits/s flush/c KiB/c\nDELETE  FULL 0 ")
                .contains("verdict: REAL_FLUSH").contains("note: fullfsync changes nothing on Linux");
        assertThat(r.out().lines().filter(l -> l.matches("(DELETE|WAL) +FULL +[01] +1 .*"))).hasSize(4);
        assertThat(r.err()).contains("flushcheck sqlite: [1/4] DELETE/FULL/fullfsync=0/batch=1");
        assertThat(CommitMatrixTests.leftovers(dir)).isEmpty();
    }

    @Test
    void jsonHasTheRowsShape() throws Exception {
        Path dir = SqliteTestFiles.diskDir("cli-json");
        Run r = run("sqlite", "--json", "--quiet", "--journal-modes", "WAL", "--synchronous", "NORMAL",
                "--fullfsync", "0", "--batches", "1,10", "--rows", "20", dir.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).doesNotContain("flushcheck sqlite:");
        assertThat(r.out()).startsWith("{").contains("\"rows\": [").contains("\"journalMode\": \"WAL\"")
                .contains("\"synchronous\": \"NORMAL\"").contains("\"fullfsync\": false").contains("\"batch\": 10")
                .contains("\"rowsPerSecond\": ").contains("\"commitsPerSecond\": ").contains("\"flushesPerCommit\": ")
                .contains("\"kibPerCommit\": ").contains("\"verdict\": \"REAL_FLUSH\"");
    }

    @Test
    void auditsAFile() throws Exception {
        Path db = SqliteTestFiles.database(SqliteTestFiles.diskDir("cli-audit"), JournalMode.WAL);
        Run r = run("sqlite", "--audit", db.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("journal_mode=WAL synchronous=").contains("survives an application crash? yes")
                .contains("survives a power loss? ");
        Run j = run("sqlite", "--audit", db.toString(), "--json");
        assertThat(j.out()).contains("\"survivesPowerLoss\": {").contains("\"journalMode\": \"WAL\"");
    }

    @Test
    void badInputIsOneLineAndExitCode2() throws Exception {
        Path notDb = SqliteTestFiles.diskDir("cli-bad").resolve("x.txt");
        Files.writeString(notDb, "x".repeat(200));
        assertThat(run("sqlite", "--journal-modes", "wall")).isEqualTo(new Run(2, "",
                "flushcheck: sqlite --journal-modes: unknown journal mode 'wall': use one of DELETE, TRUNCATE, PERSIST,"
                        + " MEMORY, WAL, OFF (see flushcheck --help)\n"));
        assertThat(run("sqlite", "--batches", "0").err()).isEqualTo("flushcheck: --batches 0 is out of range: use 1 to 1000000 (see flushcheck --help)\n");
        assertThat(run("sqlite", "--fullfsync", "2").err()).isEqualTo("flushcheck: sqlite --fullfsync takes 0, 1 or 0,1, not '2' (see flushcheck --help)\n");
        assertThat(run("sqlite", "--bogus").err()).isEqualTo("flushcheck: sqlite: unknown option --bogus (see flushcheck --help)\n");
        assertThat(run("sqlite", "/nonexistent/dir").err()).isEqualTo("flushcheck: sqlite: /nonexistent/dir does not exist (see flushcheck --help)\n");
        Run audit = run("sqlite", "--audit", notDb.toString());
        assertThat(audit.exit()).isEqualTo(2);
        assertThat(audit.err()).isEqualTo("flushcheck: sqlite: " + notDb
                + " is not an SQLite database: it does not start with the header 'SQLite format 3' (see flushcheck --help)\n");
    }

    @Test
    void helpListsTheCommand() {
        assertThat(run("--help").out()).contains("sqlite").contains("SQLite commit rates");
        assertThat(run("sqlite", "--help").out()).startsWith("usage: flushcheck sqlite [options] [PATH]");
    }

    /**
     * This run's class path without the two JDBC drivers (sqlite-jdbc, PostgreSQL's): every module of
     * flushcheck's own stays, whichever the command comes to need.
     */
    @Test
    void withoutTheDriversTheCommandsSayWhatToAdd() throws Exception {
        List<Path> drivers = List.of(location(org.sqlite.JDBC.class), location(org.postgresql.Driver.class));
        List<URL> path = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry).toAbsolutePath();
            if (!drivers.contains(p)) {
                path.add(p.toUri().toURL());
            }
        }
        assertThat(path).as("the class path, less the drivers").hasSizeGreaterThan(drivers.size());
        try (URLClassLoader loader = new URLClassLoader(path.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            Class<?> main = loader.loadClass("io.flushcheck.cli.Main");
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            List<String> args = new ArrayList<>(List.of("sqlite", "--audit", "whatever.db"));
            Object exit = main.getMethod("run", List.class, PrintStream.class, PrintStream.class)
                    .invoke(null, args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
            assertThat(exit).as("%s", err).isEqualTo(2);
            assertThat(err.toString()).isEqualTo("flushcheck: sqlite: the JDBC driver org.sqlite.JDBC is not on the class"
                    + " path: add org.xerial:sqlite-jdbc (see flushcheck --help)\n");
            Class<?> durability = loader.loadClass("io.flushcheck.sqlite.SqliteDriver");
            assertThat(durability.getMethod("available").invoke(null)).isEqualTo(false);

            // Nor PostgreSQL's: powercut postgres says what to add before it needs a disk or a server.
            ByteArrayOutputStream pgErr = new ByteArrayOutputStream();
            Object pgExit = main.getMethod("run", List.class, PrintStream.class, PrintStream.class)
                    .invoke(null, List.of("powercut", "postgres"), new PrintStream(new ByteArrayOutputStream()),
                            new PrintStream(pgErr, true));
            assertThat(pgExit).as("%s", pgErr).isEqualTo(2);
            assertThat(pgErr.toString()).isEqualTo("flushcheck: powercut postgres: the JDBC driver org.postgresql.Driver is"
                    + " not on the class path: add org.postgresql:postgresql (see flushcheck --help)\n");
        }
    }

    private static Path location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
    }
}

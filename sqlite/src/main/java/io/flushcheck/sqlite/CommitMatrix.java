package io.flushcheck.sqlite;

import io.flushcheck.CheckResult;
import io.flushcheck.report.Json;
import io.flushcheck.report.TextTable;
import io.flushcheck.text.Escape;
import io.flushcheck.text.Numbers;
import io.flushcheck.verdict.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The measured commit-rate matrix of one directory, with that directory's verdict.
 *
 * @param directory     the directory as asked
 * @param check         the directory's check (its verdict says whether the flushes counted here are real)
 * @param sqliteVersion {@code sqlite_version()} of the driver
 * @param devices       the devices whose counters were read, empty when none could be
 * @param cells         measured cells, in matrix order
 * @param skipped       labels of cells the total time limit left out
 * @param notes         what a reader must know to read the numbers (fullfsync on Linux, noise, limits)
 * @param elapsedMillis wall time of the whole run, check included
 * @param failure       why the cells stopped when the directory could not take a database (read-only, full,
 *                      no permission), null when none failed; the check then carries a PROBE_FAILED finding
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CommitMatrix(String directory, CheckResult check, String sqliteVersion, List<String> devices,
                           List<CommitCell> cells, List<String> skipped, List<String> notes, long elapsedMillis,
                           String failure) {

    public CommitMatrix(String directory, CheckResult check, String sqliteVersion, List<String> devices,
                        List<CommitCell> cells, List<String> skipped, List<String> notes, long elapsedMillis) {
        this(directory, check, sqliteVersion, devices, cells, skipped, notes, elapsedMillis, null);
    }

    public CommitMatrix {
        devices = List.copyOf(devices);
        cells = List.copyOf(cells);
        skipped = List.copyOf(skipped);
        notes = List.copyOf(notes);
    }

    /**
     * Runs the matrix in {@code dir}: a fresh database per cell, removed afterwards with its journal,
     * WAL and shared-memory files. The whole run, check included, holds {@link io.flushcheck.probe.ProbeLock}:
     * it waits for any other measurement of this JVM to end, and none starts before it ends.
     *
     * A directory that exists but cannot take a database (read-only, full, no permission) is no error: the
     * matrix has the cells that ran, its {@link #failure()}, and the verdict the directory's facts allow with
     * a PROBE_FAILED finding, as a probe there would.
     *
     * @throws io.flushcheck.BadPathException when dir does not exist or is not a directory
     * @throws SqliteException when sqlite-jdbc is missing, or SQLite refuses an option
     */
    public static CommitMatrix run(Path dir, MatrixOptions options, MatrixListener listener) {
        return new MatrixRunner(options, listener).run(dir);
    }

    public Verdict verdict() {
        return check.verdict();
    }

    public Optional<CommitCell> cell(JournalMode j, Synchronous s, boolean fullfsync, int batch) {
        return cells.stream().filter(c -> c.journalMode() == j && c.synchronous() == s && c.fullfsync() == fullfsync
                && c.batch() == batch).findFirst();
    }

    /** Like {@link #cell} but fails with the cell's label when it was not measured. */
    public CommitCell require(JournalMode j, Synchronous s, boolean fullfsync, int batch) {
        return cell(j, s, fullfsync, batch).orElseThrow(() -> new IllegalStateException(
                "the matrix has no cell " + CommitCell.label(j, s, fullfsync, batch)
                        + (failure == null ? "" : ": " + failure)));
    }

    /** The JSON text of {@code flushcheck sqlite --json}: {@link #document()}, ending in a newline. */
    public String toJson() {
        return Json.write(document());
    }

    /** The matrix as {@code flushcheck sqlite --json} writes it: {"rows":[...]} plus context. */
    public Document document() {
        List<Row> rows = new ArrayList<>(cells.size());
        for (CommitCell c : cells) {
            rows.add(Row.of(c));
        }
        return new Document(directory, verdict(), check.judgement().summary(), sqliteVersion, devices, rows, skipped,
                notes, failure, elapsedMillis);
    }

    /**
     * The JSON document of a matrix: each component a field, in this order ({@link io.flushcheck.report.Json}).
     *
     * @param failure null when no cell failed
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Document(String directory, Verdict verdict, String verdictSummary, String sqliteVersion,
                           List<String> devices, List<Row> rows, List<String> skipped, List<String> notes,
                           String failure, long elapsedMillis) {

        public Document {
            devices = List.copyOf(devices);
            rows = List.copyOf(rows);
            skipped = List.copyOf(skipped);
            notes = List.copyOf(notes);
        }
    }

    /**
     * One cell of {@link Document}: its configuration and its figures, NaN (null in JSON) where not measured.
     *
     * @param flushes flushes that reached the disk, null when not counted
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Row(JournalMode journalMode, Synchronous synchronous, boolean fullfsync, int batch,
                      double rowsPerSecond, double commitsPerSecond, double flushesPerCommit, double kibPerCommit,
                      long rows, long commits, double seconds, Long flushes, boolean truncated) {

        static Row of(CommitCell c) {
            return new Row(c.journalMode(), c.synchronous(), c.fullfsync(), c.batch(), c.rowsPerSecond(),
                    c.commitsPerSecond(), c.flushesPerCommit(), c.kibPerCommit(), c.rows(), c.commits(), c.seconds(),
                    c.flushes() < 0 ? null : c.flushes(), c.truncated());
        }
    }

    /** The matrix as a text table, with the verdict above and the notes below. */
    public String table() {
        StringBuilder sb = new StringBuilder();
        sb.append("== SQLite ").append(sqliteVersion).append(" commit rates in ").append(Escape.of(directory)).append('\n');
        sb.append("verdict: ").append(verdict()).append(": ").append(Escape.of(check.judgement().summary())).append('\n');
        sb.append(devices.isEmpty() ? "devices: none counted\n" : "devices: " + String.join(", ", devices) + "\n");
        TextTable t = new TextTable().text("journal").text("sync").text("fullfsync").figure("batch").figure("rows/s")
                .figure("commits/s").figure("flush/c").figure("KiB/c").text("");
        for (CommitCell c : cells) {
            t.row(c.journalMode().name(), c.synchronous().name(), c.fullfsync() ? "1" : "0", String.valueOf(c.batch()),
                    Numbers.rate(c.rowsPerSecond()), Numbers.rate(c.commitsPerSecond()),
                    Numbers.perEvent(c.flushesPerCommit()), Numbers.perEvent(c.kibPerCommit()),
                    c.truncated() ? " (time limit: " + c.rows() + " rows)" : "");
        }
        sb.append(t.render());
        for (String s : skipped) {
            sb.append("skipped (total time limit): ").append(s).append('\n');
        }
        for (String n : notes) {
            sb.append("note: ").append(Escape.of(n)).append('\n');
        }
        return sb.toString();
    }
}

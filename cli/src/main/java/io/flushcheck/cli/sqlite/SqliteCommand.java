package io.flushcheck.cli.sqlite;

import io.flushcheck.BadPathException;
import io.flushcheck.Booleans;
import io.flushcheck.cli.common.Converters;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.StatusLine;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.common.Values;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.sqlite.CommitMatrix;
import io.flushcheck.sqlite.DurabilityAudit;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.MatrixHtml;
import io.flushcheck.sqlite.MatrixOptions;
import io.flushcheck.sqlite.SqliteAuditor;
import io.flushcheck.sqlite.SqliteDriver;
import io.flushcheck.sqlite.SqliteException;
import io.flushcheck.sqlite.Synchronous;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flushcheck sqlite [options] [PATH]}: SQLite's commit-rate matrix in a directory, or
 * {@code --audit FILE}: the durability of a database file's settings. Touches sqlite-jdbc only
 * after checking it is there.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "sqlite", synopsisHeading = "usage: ",
        customSynopsis = {"flushcheck sqlite [options] [PATH]", "       flushcheck sqlite --audit FILE [--json]"},
        description = {"SQLite commit rates per journal mode and synchronous level; --audit FILE",
            "",
            "Measures SQLite commit rates in PATH (default: the working directory) for each journal mode,",
            "synchronous level, fullfsync value and transaction size, with the flushes and KiB the device saw",
            "per commit, and the directory's verdict. Each cell uses a fresh database, removed afterwards.",
            "--audit reads a database file's settings (read-only: the file is not modified) and says whether",
            "commits survive an application crash and a power loss there."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        footer = {"%nexit codes: 0 done, 2 bad usage or a path that cannot be used, 3 internal error, 4 the output"
            + " could not be written"})
public final class SqliteCommand implements Job {

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Option(names = "--audit", paramLabel = "FILE",
            description = "read this database's settings and say whether its commits survive a crash and a power loss")
    String audit;

    @Option(names = "--journal-modes", paramLabel = "a,b",
            description = "journal modes (default DELETE,WAL): DELETE, TRUNCATE, PERSIST, MEMORY, WAL, OFF")
    String journalModes;

    @Option(names = "--synchronous", paramLabel = "a,b", description = "synchronous levels (default OFF,NORMAL,FULL,EXTRA)")
    String synchronous;

    @Option(names = "--fullfsync", paramLabel = "a,b",
            description = "fullfsync values, booleans: 0, 1 or 0,1 (default 0,1; changes nothing outside macOS)")
    String fullfsync;

    @Option(names = "--batches", paramLabel = "a,b", description = "rows per transaction (default 1,1000)")
    String batches;

    @Option(names = "--rows", paramLabel = "N", converter = Converters.Rows.class,
            description = "rows per cell (default 2000; batched cells run at least 10 commits)")
    Integer rows;

    @Option(names = "--max-cell-seconds", paramLabel = "S", converter = Converters.MaxCellSeconds.class,
            description = "stop a cell after S seconds (default 5)")
    Double maxCellSeconds;

    @Option(names = "--max-seconds", paramLabel = "S", converter = Converters.MaxSeconds.class,
            description = "skip the cells that would start after S seconds in all (default 120)")
    Double maxSeconds;

    @Parameters(paramLabel = "PATH", arity = "0..*", hidden = true)
    List<String> paths = new ArrayList<>();

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        boolean json = output.json;
        boolean quiet = output.quiet;
        MatrixOptions options = MatrixOptions.defaults();
        String opt = "";
        try {
            if (journalModes != null) {
                opt = "--journal-modes";
                options = options.withJournalModes(JournalMode.parseList(journalModes));
            }
            if (synchronous != null) {
                opt = "--synchronous";
                options = options.withSynchronous(Synchronous.parseList(synchronous));
            }
            if (fullfsync != null) {
                opt = "--fullfsync";
                options = options.withFullfsync(booleans(fullfsync));
            }
            if (batches != null) {
                opt = "--batches";
                options = options.withBatches(ints(opt, batches));
            }
            if (rows != null) {
                opt = "--rows";
                options = options.withRows(rows);
            }
            if (maxCellSeconds != null) {
                opt = "--max-cell-seconds";
                options = options.withMaxCellSeconds(maxCellSeconds);
            }
            if (maxSeconds != null) {
                opt = "--max-seconds";
                options = options.withMaxTotalSeconds(maxSeconds);
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException("sqlite " + opt + ": " + e.getMessage());
        }
        if (audit != null && !paths.isEmpty()) {
            throw new UsageException("sqlite --audit takes one database file and no directory (got " + String.join(" ", paths) + ")");
        }
        if (audit != null && html.wanted()) {
            throw new UsageException("sqlite --html draws the commit-rate matrix; --audit has no plot (leave out one of them)");
        }
        if (paths.size() > 1) {
            throw new UsageException("sqlite measures one directory at a time (got " + paths.size() + ": " + String.join(" ", paths) + ")");
        }
        // The driver is optional: say what is missing before any class that needs it is touched.
        if (!SqliteDriver.available()) {
            throw new UsageException("sqlite: the JDBC driver org.sqlite.JDBC is not on the class path: add org.xerial:sqlite-jdbc");
        }
        try {
            if (audit != null) {
                DurabilityAudit result = SqliteAuditor.auditFile(Values.path(audit));
                out.print(json ? result.toJson() : result.text());
                out.flush();
                return ExitCodes.OK;
            }
            // An empty argument stays empty, for the validator to refuse: Path.of("") is the working directory.
            Path dir = paths.isEmpty() ? Path.of("").toAbsolutePath()
                    : paths.get(0).isEmpty() ? Path.of("") : Values.path(paths.get(0)).toAbsolutePath();
            html.check();
            MatrixProgress progress = new MatrixProgress(StatusLine.on(err, quiet), quiet, dir);
            CommitMatrix matrix = CommitMatrix.run(dir, options, progress);
            progress.finished(matrix);
            out.print(json ? matrix.toJson() : matrix.table());
            out.flush();
            return html.wanted() ? html.write(MatrixHtml.addTo(new HtmlReport("flushcheck sqlite"), matrix), err, ExitCodes.OK)
                    : ExitCodes.OK;
        } catch (BadPathException | SqliteException e) {
            throw new UsageException("sqlite: " + e.getMessage());
        }
    }

    /** The shared boolean grammar ({@link Booleans}), in the words of SQLite's pragma. */
    private static List<Boolean> booleans(String csv) throws UsageException {
        try {
            return Booleans.parseList(csv);
        } catch (IllegalArgumentException e) {
            String bad = e.getMessage().substring(0, e.getMessage().indexOf(" is not a boolean"));
            throw new UsageException("sqlite --fullfsync takes 0, 1 or 0,1, not " + bad);
        }
    }

    private static List<Integer> ints(String opt, String csv) throws UsageException {
        List<Integer> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            out.add(Values.intValue(opt, p.trim(), 1, MatrixOptions.MAX_BATCH));
        }
        return out;
    }
}

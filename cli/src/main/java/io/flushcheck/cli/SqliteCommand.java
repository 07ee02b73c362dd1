package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.report.Escape;
import io.flushcheck.report.Json;
import io.flushcheck.sqlite.CommitCell;
import io.flushcheck.sqlite.CommitMatrix;
import io.flushcheck.sqlite.DurabilityAudit;
import io.flushcheck.sqlite.JournalMode;
import io.flushcheck.sqlite.MatrixListener;
import io.flushcheck.sqlite.MatrixOptions;
import io.flushcheck.sqlite.SqliteAuditor;
import io.flushcheck.sqlite.SqliteDriver;
import io.flushcheck.sqlite.SqliteException;
import io.flushcheck.sqlite.Synchronous;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code flushcheck sqlite [options] [PATH]}: SQLite's commit-rate matrix in a directory, or
 * {@code --audit FILE}: the durability of a database file's settings. Touches sqlite-jdbc only
 * after checking it is there.
 */
final class SqliteCommand implements Subcommand {

    static final String HELP = """
            usage: flushcheck sqlite [options] [PATH]
                   flushcheck sqlite --audit FILE [--json]

            Measures SQLite commit rates in PATH (default: the working directory) for each journal mode,
            synchronous level, fullfsync value and transaction size, with the flushes and KiB the device saw
            per commit, and the directory's verdict. Each cell uses a fresh database, removed afterwards.
            --audit reads a database file's settings (read-only: the file is not modified) and says whether
            commits survive an application crash and a power loss there.

            options:
              --json                 print JSON on stdout (progress stays on stderr)
              --journal-modes a,b    journal modes (default DELETE,WAL): %s
              --synchronous a,b      synchronous levels (default OFF,NORMAL,FULL,EXTRA)
              --fullfsync a,b        0, 1 or 0,1 (default 0,1; changes nothing outside macOS)
              --batches a,b          rows per transaction (default 1,1000)
              --rows N               rows per cell (default 2000; batched cells run at least 10 commits)
              --max-cell-seconds S   stop a cell after S seconds (default 5)
              --max-seconds S        skip the cells that would start after S seconds in all (default 120)
              --quiet                no progress on stderr
              -h, --help             this text
            exit codes: 0 done, 2 bad usage or a path that cannot be used, 3 internal error, 4 the output could not
            be written
            """;

    @Override
    public String name() {
        return "sqlite";
    }

    @Override
    public String summary() {
        return "SQLite commit rates per journal mode and synchronous level; --audit FILE";
    }

    @Override
    public int run(List<String> argList, PrintStream out, PrintStream err) throws UsageException {
        Args args = new Args(argList);
        boolean json = false;
        boolean quiet = false;
        String audit = null;
        MatrixOptions options = MatrixOptions.defaults();
        List<String> paths = new ArrayList<>();
        boolean onlyPaths = false;
        while (args.hasNext()) {
            String a = args.next();
            if (onlyPaths || !a.startsWith("-") || a.equals("-")) {
                paths.add(a);
                continue;
            }
            String opt = Args.baseName(a);
            try {
                switch (opt) {
                    case "--" -> onlyPaths = true;
                    case "-h", "--help" -> {
                        out.print(String.format(HELP, JournalMode.names()));
                        return ExitCodes.OK;
                    }
                    case "--json" -> json = true;
                    case "--quiet", "-q" -> quiet = true;
                    case "--audit" -> audit = args.value(opt, a);
                    case "--journal-modes" -> options = options.withJournalModes(JournalMode.parseList(args.value(opt, a)));
                    case "--synchronous" -> options = options.withSynchronous(Synchronous.parseList(args.value(opt, a)));
                    case "--fullfsync" -> options = options.withFullfsync(booleans(opt, args.value(opt, a)));
                    case "--batches" -> options = options.withBatches(ints(opt, args.value(opt, a)));
                    case "--rows" -> options = options.withRows(Args.intValue(opt, args.value(opt, a), 1, MatrixOptions.MAX_ROWS));
                    case "--max-cell-seconds" -> options = options.withMaxCellSeconds(Args.doubleValue(opt, args.value(opt, a)));
                    case "--max-seconds" -> options = options.withMaxTotalSeconds(Args.doubleValue(opt, args.value(opt, a)));
                    default -> throw new UsageException("sqlite: unknown option " + a);
                }
            } catch (IllegalArgumentException e) {
                throw new UsageException("sqlite " + opt + ": " + e.getMessage());
            }
        }
        if (audit != null && !paths.isEmpty()) {
            throw new UsageException("sqlite --audit takes one database file and no directory (got " + String.join(" ", paths) + ")");
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
                DurabilityAudit result = SqliteAuditor.auditFile(Args.path(audit));
                out.print(json ? Json.write(result.toJson()) : result.text());
                out.flush();
                return ExitCodes.OK;
            }
            // An empty argument stays empty, for the validator to refuse: Path.of("") is the working directory.
            Path dir = paths.isEmpty() ? Path.of("").toAbsolutePath()
                    : paths.get(0).isEmpty() ? Path.of("") : Args.path(paths.get(0)).toAbsolutePath();
            CommitMatrix matrix = CommitMatrix.run(dir, options, quiet ? new Quiet(err) : progress(err, dir));
            out.print(json ? Json.write(matrix.toJson()) : matrix.table());
            out.flush();
            return ExitCodes.OK;
        } catch (BadPathException | SqliteException e) {
            throw new UsageException("sqlite: " + e.getMessage());
        }
    }

    /** No progress; a change made to the user's directory is still said. */
    private static final class Quiet implements MatrixListener {
        private final PrintStream err;

        Quiet(PrintStream err) {
            this.err = err;
        }

        @Override
        public void staleFilesRemoved(String message) {
            err.println("flushcheck sqlite: " + Escape.of(message));
        }
    }

    private static MatrixListener progress(PrintStream err, Path dir) {
        return new MatrixListener() {
            @Override
            public void staleFilesRemoved(String message) {
                err.println("flushcheck sqlite: " + Escape.of(message));
            }

            @Override
            public void cellFailed(int index, int total, String reason) {
                err.printf("flushcheck sqlite: [%d/%d] %s%n", index + 1, total, Escape.of(reason));
            }

            @Override
            public void checking(Path d) {
                err.printf("flushcheck sqlite: checking %s%n", Escape.of(d));
            }

            @Override
            public void cellStarted(int index, int total, String label) {
                err.printf("flushcheck sqlite: [%d/%d] %s%n", index + 1, total, label);
            }

            @Override
            public void cellFinished(int index, int total, CommitCell c) {
                // No device counters (tmpfs, no /sys): say so rather than print NaN.
                String flushes = Double.isNaN(c.flushesPerCommit()) ? "flushes not counted (no device counters here)"
                        : String.format(Locale.ROOT, "%.2f flushes per commit", c.flushesPerCommit());
                err.printf(Locale.ROOT, "flushcheck sqlite: [%d/%d] %,.0f rows/s, %s%n", index + 1, total,
                        c.rowsPerSecond(), flushes);
            }

            @Override
            public void timeLimitReached(int skipped) {
                err.printf("flushcheck sqlite: total time limit reached in %s: %d cells skipped%n", Escape.of(dir), skipped);
            }
        };
    }

    private static List<Boolean> booleans(String opt, String csv) throws UsageException {
        List<Boolean> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            switch (p.trim().toLowerCase(Locale.ROOT)) {
                case "0", "off", "false", "no" -> out.add(false);
                case "1", "on", "true", "yes" -> out.add(true);
                default -> throw new UsageException("sqlite " + opt + " takes 0, 1 or 0,1, not '" + p + "'");
            }
        }
        return out;
    }

    private static List<Integer> ints(String opt, String csv) throws UsageException {
        List<Integer> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            out.add(Args.intValue(opt, p.trim(), 1, MatrixOptions.MAX_BATCH));
        }
        return out;
    }
}

package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.Escape;
import io.flushcheck.report.ResultJson;
import io.flushcheck.report.TextReport;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code flushcheck [options] [PATH...]}: the verdict and the costs of each directory. */
final class ProbeCommand {

    static final String HELP = """
            usage: flushcheck [options] [PATH...]
                   flushcheck COMMAND [options]

            Tells whether syncs in each directory reach a device that keeps them, and what they cost.
            Default paths: the JVM temp dir (java.io.tmpdir) and the working directory.

            options:
              --json                  print the results as JSON on stdout (progress stays on stderr)
              --modes a,b,...         sync modes, default all of this OS (%s); known: %s
              --rounds N              rounds per mode (default 1000)
              --block-size BYTES      bytes per round: 4096 (default), 64k, 1m, ...
              --histogram             print the log2 latency histogram and the slowest rounds
              --per-round-counters    read device counters around every round (shows what the device did
                                      in the slowest rounds; adds a few microseconds per round)
              --always-probe          measure even where the storage facts already decide (tmpfs, eatmydata)
              --require-real-flush    exit 1 unless every path is REAL_FLUSH (a CI gate)
              --min-flushes-per-sync X  flushes per sync a device must show (default 0.5)
              --suspicious-micros X   a median sync below this is too fast to be a flush (default 20)
              --quiet                 no progress on stderr
              -h, --help              this text

            commands:
            %s
            exit codes:
              0  checked (and with --require-real-flush: every path is REAL_FLUSH)
              1  --require-real-flush and some path is NO_REAL_FLUSH or UNKNOWN
              2  bad usage, or a path that does not exist or is not a directory (nothing was written)
              3  internal error
              4  the results could not be written to stdout (full, closed, a broken pipe): one line on stderr
            A directory that exists but cannot be written (read-only, full, no permission) gets the verdict
            its storage facts allow, UNKNOWN when they decide nothing, with a PROBE_FAILED finding saying why.
            """;

    private static final java.util.Set<String> FLAGS = java.util.Set.of("-h", "--help", "--json", "--histogram",
            "--require-real-flush", "--quiet", "-q", "--always-probe", "--per-round-counters");

    int run(List<String> argList, PrintStream out, PrintStream err) throws UsageException {
        Args args = new Args(argList);
        boolean json = false;
        boolean histogram = false;
        boolean require = false;
        boolean quiet = false;
        boolean alwaysProbe = false;
        ProbePlan defaults = ProbePlan.defaults();
        List<SyncMode> modes = defaults.modes();
        int rounds = defaults.rounds();
        int blockSize = defaults.blockSize();
        boolean perRound = false;
        double minFlushes = Thresholds.DEFAULT.minFlushesPerSync();
        double suspicious = Thresholds.DEFAULT.suspiciousSyncMicros();
        List<Path> paths = new ArrayList<>();
        boolean onlyPaths = false;
        while (args.hasNext()) {
            String a = args.next();
            if (onlyPaths || !a.startsWith("-") || a.equals("-")) {
                paths.add(Args.path(a));
                continue;
            }
            String opt = Args.baseName(a);
            try {
                if (FLAGS.contains(opt)) {
                    Args.noValue(opt, a);
                }
                switch (opt) {
                    case "--" -> onlyPaths = true;
                    case "-h", "--help" -> {
                        out.print(help());
                        return ExitCodes.OK;
                    }
                    case "--json" -> json = true;
                    case "--histogram" -> histogram = true;
                    case "--require-real-flush" -> require = true;
                    case "--quiet", "-q" -> quiet = true;
                    case "--always-probe" -> alwaysProbe = true;
                    case "--per-round-counters" -> perRound = true;
                    case "--modes" -> modes = SyncMode.parseList(args.value(opt, a));
                    case "--rounds" -> rounds = Args.intValue(opt, args.value(opt, a), 1, ProbePlan.MAX_ROUNDS);
                    case "--block-size" -> blockSize = Args.intValue(opt, args.value(opt, a), ProbePlan.MIN_BLOCK, ProbePlan.MAX_BLOCK);
                    case "--min-flushes-per-sync" -> minFlushes = Args.doubleValue(opt, args.value(opt, a));
                    case "--suspicious-micros" -> suspicious = Args.doubleValue(opt, args.value(opt, a));
                    default -> throw new UsageException("unknown option " + a);
                }
            } catch (IllegalArgumentException e) {
                throw new UsageException(opt + ": " + e.getMessage());
            }
        }
        if (!Thresholds.validMinFlushesPerSync(minFlushes)) {
            throw new UsageException("--min-flushes-per-sync " + minFlushes + " is out of range: use "
                    + Thresholds.MIN_FLUSHES_RANGE);
        }
        if (!Thresholds.validSuspiciousSyncMicros(suspicious)) {
            throw new UsageException("--suspicious-micros " + suspicious + " is out of range: use "
                    + Thresholds.SUSPICIOUS_RANGE);
        }
        Thresholds thresholds = new Thresholds(minFlushes, suspicious);
        if (paths.isEmpty()) {
            paths.add(Path.of(System.getProperty("java.io.tmpdir")));
            Path cwd = Path.of("").toAbsolutePath();
            // Probe a directory once, even when the temp dir is the working directory.
            if (!sameDirectory(cwd, paths.get(0))) {
                paths.add(cwd);
            }
        }
        // Every path is validated before any is probed: exit code 2 promises that nothing was written.
        for (Path p : paths) {
            try {
                Flushcheck.validateDirectory(p);
            } catch (BadPathException e) {
                throw new UsageException(e.getMessage());
            }
        }
        ProbePlan plan;
        try {
            // Built once all options are read: rounds and block size are only checked together.
            plan = new ProbePlan(modes, blockSize, rounds, perRound, defaults.slowRounds());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        CheckOptions options = new CheckOptions(plan, thresholds, alwaysProbe);
        List<CheckResult> results = new ArrayList<>();
        for (Path p : paths) {
            ProbeListener listener = quiet ? ProbeListener.NONE : new Progress(err, p);
            try {
                CheckResult r = Flushcheck.check(p, options, listener);
                results.add(r);
                // Not progress: a change made to the user's directory is said even with --quiet.
                for (Finding f : r.judgement().findings()) {
                    if (f.code() == FindingCode.STALE_FILES_REMOVED) {
                        err.println("flushcheck: " + f.message());
                    }
                }
                if (!json) {
                    out.print(TextReport.of(r, histogram));
                    out.println();
                    if (out.checkError()) {
                        break; // the results cannot be written: probing more paths would be for nothing (exit 4)
                    }
                }
            } catch (BadPathException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (json) {
            out.print(ResultJson.of(results));
        }
        out.flush();
        if (!require) {
            return ExitCodes.OK;
        }
        int exit = ExitCodes.OK;
        for (CheckResult r : results) {
            if (r.verdict() != Verdict.REAL_FLUSH) {
                err.println("flushcheck: " + Escape.of(r.path()) + " is " + r.verdict() + ": " + Escape.of(r.judgement().summary()));
                exit = ExitCodes.NOT_REAL_FLUSH;
            }
        }
        return exit;
    }

    private static boolean sameDirectory(Path a, Path b) {
        try {
            return Flushcheck.validateDirectory(a).equals(Flushcheck.validateDirectory(b));
        } catch (BadPathException e) {
            return false;
        }
    }

    /**
     * Progress lines on stderr. A class rather than a lambda: the command's first lambda would cost a
     * cold JVM milliseconds of bootstrapping before the first verdict.
     */
    private static final class Progress implements ProbeListener {

        private final PrintStream err;
        private final String path; // escaped: a progress line is one line whatever the name holds

        Progress(PrintStream err, Path path) {
            this.err = err;
            this.path = Escape.of(path.toString());
        }

        @Override
        public void progress(SyncMode mode, int done, int total) {
            if (done == 0) {
                err.printf("flushcheck: %s: %s, %d rounds%n", path, mode.id(), total);
            } else if (done < total && total >= 1000) {
                err.printf("flushcheck: %s: %s, %d/%d%n", path, mode.id(), done, total);
            }
        }
    }

    static String help() {
        StringBuilder cmds = new StringBuilder();
        for (Subcommand s : Subcommand.all()) {
            cmds.append(String.format("  %-22s  %s%n", s.name(), s.summary()));
        }
        if (cmds.length() == 0) {
            cmds.append("  (none)\n");
        }
        return String.format(HELP, SyncMode.ids(SyncMode.available()), SyncMode.allIds(), cmds);
    }
}

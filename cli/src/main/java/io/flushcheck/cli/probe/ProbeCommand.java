package io.flushcheck.cli.probe;

import io.flushcheck.BadPathException;
import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.cli.common.Converters;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.PlanOptions;
import io.flushcheck.cli.common.StatusLine;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.common.Values;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.ResultJson;
import io.flushcheck.report.TextReport;
import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.storage.MountIdentity;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code flushcheck [probe] [options] [PATH...]}: the verdict and the costs of each directory. */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "flushcheck", synopsisHeading = "usage: ",
        customSynopsis = {"flushcheck [probe] [options] [PATH...]", "       flushcheck COMMAND [options]"},
        description = {"Tells whether syncs in each directory reach a device that keeps them, and what they cost.",
            "Default paths: the JVM temp dir (java.io.tmpdir) and the working directory."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n", commandListHeading = "%ncommands:%n")
public final class ProbeCommand implements Job {

    /** The exit codes, as the help prints them. */
    static final String[] EXIT_CODES = {
        "exit codes:",
        "  0  checked (and with --require-real-flush: every path is REAL_FLUSH)",
        "  1  --require-real-flush and some path is NO_REAL_FLUSH or UNKNOWN",
        "  2  bad usage, or a path that does not exist or is not a directory (nothing was written)",
        "  3  internal error",
        "  4  the results could not be written to stdout (full, closed, a broken pipe): one line on stderr",
        "A directory that exists but cannot be written (read-only, full, no permission) gets the verdict",
        "its storage facts allow, UNKNOWN when they decide nothing, with a PROBE_FAILED finding saying why.",
    };

    @Mixin
    public OutputOptions output = new OutputOptions();

    @Mixin
    public PlanOptions planOptions = new PlanOptions();

    @Mixin
    public ThresholdOptions limits = new ThresholdOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Option(names = "--preset", paramLabel = "NAME", description = {"a known recipe: etcd (2,300-byte writes with "
            + "fdatasync over 22 MiB, in a file laid out as etcd's fio check lays it out; prints fdatasync p50/p99 "
            + "and PASS or FAIL against 10 ms)"})
    String preset;

    @Option(names = "--block-size", paramLabel = "BYTES", converter = Converters.BlockSize.class,
            description = "bytes per round: 4096 (default), 64k, 1m, ...")
    public Integer blockSize;

    @Option(names = "--histogram", arity = "0", description = "print the log2 latency histogram and the slowest rounds")
    public boolean histogram;

    @Option(names = "--per-round-counters", arity = "0", description = {"read device counters around every round (shows what the "
            + "device did in the slowest rounds; adds a few microseconds per round)"})
    public boolean perRound;

    @Option(names = "--always-probe", arity = "0", description = "measure even where the storage facts already decide (tmpfs, eatmydata)")
    public boolean alwaysProbe;

    @Option(names = "--require-real-flush", arity = "0", description = "exit 1 unless every path is REAL_FLUSH (a CI gate)")
    public boolean require;

    @Parameters(paramLabel = "PATH", arity = "0..*", hidden = true)
    public List<String> pathArgs = new ArrayList<>();

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        boolean json = output.json;
        boolean quiet = output.quiet;
        ProbePlan defaults = ProbePlan.defaults();
        List<SyncMode> modes = planOptions.modes(defaults.modes());
        int rounds = planOptions.rounds(defaults.rounds());
        int blockSize = this.blockSize == null ? defaults.blockSize() : this.blockSize;
        Thresholds thresholds = limits.thresholds();
        List<Path> paths = new ArrayList<>();
        for (String a : pathArgs) {
            paths.add(Values.path(a));
        }
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
        boolean etcd = false;
        if (preset != null) {
            if (!preset.equals(EtcdPreset.NAME)) {
                throw new UsageException("--preset: unknown preset '" + preset + "'; known presets: " + EtcdPreset.NAME);
            }
            if (planOptions.modes != null || planOptions.rounds != null || this.blockSize != null) {
                throw new UsageException("--preset etcd sets the mode, the rounds and the block size: leave out --modes, "
                        + "--rounds and --block-size");
            }
            etcd = true;
        }
        html.check();
        ProbePlan plan;
        try {
            // Built once all options are read: rounds and block size are only checked together.
            plan = etcd ? EtcdPreset.plan(defaults.slowRounds()) : new ProbePlan(modes, blockSize, rounds, perRound, defaults.slowRounds());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        CheckOptions options = new CheckOptions(plan, thresholds, alwaysProbe);
        List<CheckResult> results = new ArrayList<>();
        // One probe per mount: another directory on a probed mount is judged with that probe's costs.
        Map<String, CheckResult> probedMounts = new HashMap<>();
        StatusLine status = StatusLine.on(err, quiet);
        for (Path p : paths) {
            ProbeProgress progress = quiet ? null : new ProbeProgress(status, p, plan.modes());
            ProbeListener listener = progress == null ? ProbeListener.NONE : progress;
            try {
                String mount = paths.size() > 1 ? mountKey(p) : null;
                CheckResult probed = mount == null ? null : probedMounts.get(mount);
                CheckResult r;
                String measuredFor = probed == null ? null : probed.path();
                if (probed != null) {
                    if (!quiet) {
                        status.say("flushcheck: " + Escape.of(p.toString()) + " is on the mount of " + Escape.of(probed.path())
                                + ": judged with its probe");
                    }
                    r = Flushcheck.recheck(p, probed, options);
                } else {
                    r = Flushcheck.check(p, options, listener);
                    if (mount != null) {
                        probedMounts.put(mount, r);
                    }
                }
                results.add(r);
                if (progress != null) {
                    progress.finished(r);
                }
                // Not progress: a change made to the user's directory is said even with --quiet.
                for (Finding f : r.judgement().findings()) {
                    if (f.code() == FindingCode.STALE_FILES_REMOVED) {
                        status.say("flushcheck: " + f.message());
                    }
                }
                if (!json) {
                    out.print(TextReport.of(r, histogram, measuredFor));
                    if (etcd) {
                        out.println(EtcdPreset.line(r));
                    }
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
            out.print(etcd ? etcdJson(results) : ResultJson.of(results));
        }
        out.flush();
        if (html.wanted()) {
            HtmlReport page = new HtmlReport(etcd ? "flushcheck --preset etcd" : "flushcheck").addResults(results);
            if (etcd) {
                StringBuilder lines = new StringBuilder();
                for (CheckResult r : results) {
                    lines.append("<p class=\"preset\">").append(Html.text(EtcdPreset.line(r))).append("</p>");
                }
                page.addSection("preset-etcd", "etcd's disk check", lines.toString());
            }
            int code = html.write(page, err, ExitCodes.OK);
            if (code != ExitCodes.OK) {
                return code;
            }
        }
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

    /**
     * The mount a path walk to the directory reaches, in the namespace it leads into (MountIdentity), or null where
     * it cannot be told (not Linux, a namespace gone).
     */
    private static String mountKey(Path p) {
        try {
            return MountIdentity.of(Flushcheck.validateDirectory(p).toString());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean sameDirectory(Path a, Path b) {
        try {
            return Flushcheck.validateDirectory(a).equals(Flushcheck.validateDirectory(b));
        } catch (BadPathException e) {
            return false;
        }
    }

    /** The results' JSON with each element's {@code "preset"}: the etcd figures, beside the verdict. */
    private static String etcdJson(List<CheckResult> results) {
        List<ResultData> list = new ArrayList<>();
        for (CheckResult r : results) {
            list.add(ResultData.of(r).withPreset(EtcdPreset.data(r)));
        }
        return ResultJson.ofData(list);
    }

    /** The help's closing lines: the sync modes (they depend on the OS) and the exit codes. */
    public static String[] footer() {
        List<String> lines = new ArrayList<>();
        lines.add("");
        lines.add("sync modes: " + SyncMode.allIds() + " (default here: " + SyncMode.ids(SyncMode.available()) + ")");
        lines.add("");
        lines.addAll(List.of(EXIT_CODES));
        return lines.toArray(new String[0]);
    }
}

package io.flushcheck.cli.vm;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.cli.common.Converters;
import io.flushcheck.cli.common.EnvironmentFailure;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.PlanOptions;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.common.Values;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.ExtendedResult;
import io.flushcheck.report.Json;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.report.html.PathFigures;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.vm.CacheMode;
import io.flushcheck.vm.VmComparison;
import io.flushcheck.vm.VmProbe;
import io.flushcheck.vm.VmResult;
import io.flushcheck.vm.VmUnavailableException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code flushcheck vm [--json] [--cache a,b] [--rounds N] [--block-size B]}: probes the host directory and a QEMU guest per
 * cache mode whose disk image lies in it, and judges each guest by the flushes the host's disk received.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "vm", synopsisHeading = "usage: ", customSynopsis = "flushcheck vm [options]",
        description = {"probe the host and QEMU guests per cache mode, counting flushes on both sides",
            "",
            "Probes a directory on the host, then boots a QEMU guest per cache mode whose data disk is a raw file",
            "in that directory on a loop device made for the run, runs the same sync loops inside it, and counts",
            "the flushes the guest's disk completed against those the host's loop device received. A guest whose",
            "flushes complete while the host disk gets none is NO_REAL_FLUSH. Needs root, qemu-system-x86,",
            "linux-image-amd64, busybox-static, gcc, cpio, xz-utils and e2fsprogs; the guest image is built",
            "once and cached in ~/.cache/flushcheck/vm ($XDG_CACHE_HOME, or the property flushcheck.vm.cache).",
            "With --json: {\"results\":[...], \"comparison\":{...}, \"failures\":[...]}, one result per environment",
            "(host, qemu/cache=<mode>), each guest's with \"hostFlushes\" and \"guestFlushes\"."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        footer = {"%nexit codes: 0 compared, 2 bad usage, 3 no QEMU guest can run here or a guest failed, 4 the output"
            + " could not be written"})
public final class VmCommand implements Job {

    static final int DEFAULT_ROUNDS = 200;
    /** Every round's latency crosses the serial console. */
    static final int MAX_ROUNDS = 100_000;
    static final List<SyncMode> DEFAULT_MODES = List.of(SyncMode.APPEND_FSYNC, SyncMode.APPEND_FDATASYNC,
            SyncMode.OVERWRITE_FDATASYNC);

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Option(names = "--cache", paramLabel = "a,b,...",
            description = "QEMU drive cache modes (default: none,writeback,writethrough,directsync,unsafe)")
    String cacheList;

    @Option(names = "--rounds", paramLabel = "N", converter = Converters.Rounds.class,
            description = "rounds per mode (default: 200; at most 100000)")
    Integer rounds;

    @Option(names = "--block-size", paramLabel = "BYTES", converter = Converters.BlockSize.class,
            description = "bytes per round in the guests and on the host: 4096 (default), 64k, 1m, ...")
    Integer blockSize;

    @Option(names = "--modes", paramLabel = "a,b,...",
            description = "sync modes (default: append-fsync,append-fdatasync,overwrite-fdatasync; also dsync, flush-only, no-sync)")
    String modeList;

    @Option(names = "--host-dir", paramLabel = "DIR",
            description = "the host directory probed and holding the guests' disk images (default: the working directory)")
    String hostDirArg;

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        List<CacheMode> caches = List.of(CacheMode.values());
        if (cacheList != null) {
            try {
                caches = CacheMode.parseList(cacheList);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--cache: " + e.getMessage());
            }
        }
        int n = rounds == null ? DEFAULT_ROUNDS : rounds;
        if (n > MAX_ROUNDS) {
            throw new UsageException("--rounds: " + n + " is more than a guest takes (at most " + MAX_ROUNDS + ")");
        }
        List<SyncMode> modes = PlanOptions.modes(modeList, DEFAULT_MODES);
        for (SyncMode m : modes) {
            if (!VmProbe.GUEST_MODES.contains(m)) {
                throw new UsageException("--modes: the guest's probe has no mode " + m.id()
                        + " (it has append-fsync, append-fdatasync, overwrite-fdatasync, dsync, flush-only, no-sync)");
            }
        }
        Path hostDir = Values.hostDir(hostDirArg);
        html.check();
        boolean quiet = output.quiet;
        VmProbe probe = new VmProbe(null, m -> {
            if (!quiet) {
                err.println("flushcheck vm: " + Escape.of(m));
            }
        });
        try {
            probe.prepare();
        } catch (VmUnavailableException e) {
            err.println("flushcheck vm: no QEMU guest can run here: " + Escape.of(e.getMessage()));
            return ExitCodes.INTERNAL;
        }
        ProbePlan plan = ProbePlan.defaults().withModes(modes).withRounds(n);
        if (blockSize != null) {
            plan = plan.withBlockSize(blockSize);
        }
        if (!quiet) {
            err.println("flushcheck vm: accelerator " + Escape.of(probe.accelerator()));
            err.println("flushcheck vm: host: probing " + Escape.of(hostDir));
        }
        CheckResult host = Flushcheck.check(hostDir, CheckOptions.defaults().withPlan(plan), ProbeListener.NONE);
        if (!quiet) {
            err.println("flushcheck vm: host: " + host.verdict() + String.format(Locale.ROOT, " (%.1f s)", host.elapsedMillis() / 1000.0));
        }
        List<VmResult> guests = new ArrayList<>();
        Map<String, String> failures = new LinkedHashMap<>();
        for (CacheMode c : caches) {
            try {
                VmResult r = probe.run(c, hostDir, plan, host, Thresholds.DEFAULT);
                guests.add(r);
                if (!quiet) {
                    err.println("flushcheck vm: " + r.environment() + ": " + r.verdict() + String.format(Locale.ROOT,
                            " (%.1f s, booted in %.1f s; %d guest flushes, %d host flushes)", r.result().elapsedMillis() / 1000.0,
                            r.bootMillis() / 1000.0, r.guestFlushes(), r.hostFlushes()));
                }
            } catch (RuntimeException e) {
                failures.put(c.environment(), c.environment() + ": " + e.getMessage());
            }
        }
        VmComparison comparison = VmComparison.of(host, guests);
        if (output.json) {
            out.print(Json.write(jsonDocument(host, guests, comparison, failures)));
        } else {
            out.printf("%-24s %-14s %s%n", "host", host.verdict(), Escape.of(host.judgement().summary()));
            for (VmResult g : guests) {
                out.printf("%-24s %-14s %s%n", g.environment(), g.verdict(), Escape.of(g.result().judgement().reasons().get(0).message()));
            }
            out.println();
            out.print(comparison.text());
        }
        out.flush();
        int written = html.wanted() ? html.write(page(host, guests, comparison, failures), err, ExitCodes.OK) : ExitCodes.OK;
        for (String f : failures.values()) {
            err.println("flushcheck vm: " + Escape.of(f));
        }
        if (written != ExitCodes.OK) {
            return written;
        }
        return failures.isEmpty() ? ExitCodes.OK : ExitCodes.INTERNAL;
    }

    /** The comparison, the guests that gave no result, then the host and each guest as a path. */
    static HtmlReport page(CheckResult host, List<VmResult> guests, VmComparison comparison, Map<String, String> failures) {
        HtmlReport page = new HtmlReport("flushcheck vm")
                .addSection("vm-compared", "Host against QEMU guests", "<pre>" + Html.text(comparison.text()) + "</pre>");
        if (!failures.isEmpty()) {
            StringBuilder sb = new StringBuilder("<ul class=\"failures\">");
            for (String f : failures.values()) {
                sb.append("<li>").append(Html.text(f)).append("</li>");
            }
            page.addSection("vm-failed", "Guests without a result", sb.append("</ul>").toString());
        }
        List<PathFigures> paths = new ArrayList<>();
        paths.add(titled(PathFigures.of(host), "host"));
        for (VmResult g : guests) {
            paths.add(titled(PathFigures.of(g.result()), g.environment()));
        }
        return page.addPaths(paths, "environment");
    }

    private static PathFigures titled(PathFigures p, String title) {
        return new PathFigures(title, p.verdict(), p.elapsedMillis(), p.findings(), p.facts(), p.modes());
    }

    /** {@code {"results":[host, guests...], "comparison":{...}, "failures":[{"environment","reason"}]}}. */
    static Document jsonDocument(CheckResult host, List<VmResult> guests, VmComparison comparison,
                                 Map<String, String> failures) {
        List<ExtendedResult> results = new ArrayList<>();
        results.add(new ExtendedResult(ResultData.of(host).withEnvironment("host"), null, List.of()));
        for (VmResult g : guests) {
            results.add(g.element());
        }
        return new Document(results, comparison.document(), EnvironmentFailure.of(failures));
    }

    /**
     * {@code flushcheck vm --json}: each component a field, in this order. Public, in a package-private class, only so
     * that core's JSON writer may read its components.
     *
     * @param results the host's result, then each guest's ({@link VmResult#element()})
     */
    public record Document(List<ExtendedResult> results, VmComparison.Document comparison, List<EnvironmentFailure> failures) {

        public Document {
            results = List.copyOf(results);
            failures = List.copyOf(failures);
        }
    }
}

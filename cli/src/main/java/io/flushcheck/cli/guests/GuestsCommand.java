package io.flushcheck.cli.guests;

import io.flushcheck.cli.common.EnvironmentFailure;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.HtmlOption;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.PlanOptions;
import io.flushcheck.cli.common.StatusLine;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.common.Values;
import io.flushcheck.guest.GuestComparison;
import io.flushcheck.guest.GuestEnvironment;
import io.flushcheck.guest.GuestImage;
import io.flushcheck.guest.GuestImageChoice;
import io.flushcheck.guest.GuestOutcome;
import io.flushcheck.guest.GuestRequest;
import io.flushcheck.guest.GuestRunner;
import io.flushcheck.guest.GuestsHtml;
import io.flushcheck.guest.MountKind;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.Json;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.TextTable;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.text.Escape;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code flushcheck guests [--json] [--rounds N]}: probes the host and every guest mount (overlay, bind
 * mount, named volume, tmpfs) in a Debian bookworm container and prints the host/guest comparison.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@Command(name = "guests", synopsisHeading = "usage: ", customSynopsis = "flushcheck guests [options]",
        description = {"probe the host and Docker guests (overlay, bind, volume, tmpfs) and compare them",
            "",
            "Probes a directory on the host and the data directory of a Debian bookworm guest container on",
            "each mount kind (overlay root, bind mount, named volume, tmpfs), then compares them per mode:",
            "median, p99, flushes per sync, verdict, and the guest/host ratios. A guest whose syncs are far",
            "faster than the host's real flush on the same disk is called out. Needs a Docker engine; on a",
            "machine that is itself a container set TESTCONTAINERS_RYUK_DISABLED=true",
            "TESTCONTAINERS_HOST_OVERRIDE=localhost.",
            "With --json: {\"results\":[...], \"comparison\":{...}, \"failures\":[...]}, one result per",
            "environment as for paths, each with \"environment\" (host, or <image>/<mount kind>); an",
            "environment that gave none is in \"failures\" as {\"environment\", \"reason\"};",
            "\"comparisonError\" when no comparison was made."},
        descriptionHeading = "%n", optionListHeading = "%noptions:%n",
        footer = {"%nexit codes: 0 compared, 2 bad usage, 3 no Docker engine or a guest failed to run, 4 the output"
            + " could not be written"})
public final class GuestsCommand implements Job {

    /** Guests run 200 rounds per mode unless told otherwise: five environments in one run. */
    static final int DEFAULT_ROUNDS = 200;

    @Mixin
    OutputOptions output = new OutputOptions();

    @Mixin
    PlanOptions planOptions = new PlanOptions();

    @Mixin
    HtmlOption html = new HtmlOption();

    @Option(names = "--mounts", paramLabel = "a,b,...", description = "mount kinds (default: overlay,bind,volume,tmpfs)")
    String mountList;

    @Option(names = "--host-dir", paramLabel = "DIR", description = {"the host directory; the host probe and the bind "
            + "mounts use fresh subdirectories of it (default: the working directory)"})
    String hostDirArg;

    @Override
    public int run(PrintStream out, PrintStream err) throws UsageException {
        boolean json = output.json;
        boolean quiet = output.quiet;
        int rounds = planOptions.rounds(DEFAULT_ROUNDS);
        // The guests run Linux, whatever the host is: no macOS-only modes by default.
        List<SyncMode> modes = planOptions.modes(SyncMode.linux());
        List<MountKind> mounts = List.of(MountKind.values());
        if (mountList != null) {
            try {
                // A set: each mount kind once, however often it is named.
                java.util.Set<MountKind> ms = new java.util.LinkedHashSet<>();
                for (String m : mountList.split(",")) {
                    ms.add(MountKind.parse(m));
                }
                mounts = List.copyOf(ms);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--mounts: " + e.getMessage());
            }
        }
        Path hostDir = Values.hostDir(hostDirArg);
        html.check();
        GuestProgress progress = new GuestProgress(StatusLine.on(err, quiet), quiet);
        GuestRunner runner = new GuestRunner(progress);
        if (!GuestRunner.dockerAvailable()) {
            err.println("flushcheck guests: no Docker engine answers: install and start one (Debian: apt-get install "
                    + "docker.io), or set DOCKER_HOST");
            return ExitCodes.INTERNAL;
        }
        GuestImage image;
        try {
            image = GuestImageChoice.forTestClasses(List.of(), progress);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        // A line of its own, kept on a terminal too: which image the guests run in, and why that one.
        if (!quiet) {
            err.println("flushcheck guests: guest image " + Escape.of(image.describe()));
        }
        if (!image.base().found()) {
            err.println("flushcheck guests: no guest image: " + Escape.of(image.base().why()));
            return ExitCodes.INTERNAL;
        }
        GuestRequest request = GuestRequest.probeOnly(rounds).withModes(modes).withHostDir(hostDir);
        List<GuestEnvironment> envs = new ArrayList<>();
        envs.add(GuestEnvironment.host());
        for (MountKind m : mounts) {
            envs.add(GuestEnvironment.guest(image, m));
        }
        List<ResultData> results = new ArrayList<>();
        Map<String, String> failures = new LinkedHashMap<>(); // environment -> why
        for (GuestEnvironment e : envs) {
            GuestOutcome o;
            progress.starting();
            try {
                o = runner.run(e, request);
            } catch (RuntimeException ex) {
                failures.put(e.name(), e.name() + ": " + ex.getMessage());
                progress.failed(e.name(), String.valueOf(ex.getMessage()));
                continue;
            }
            if (o.results().isEmpty()) {
                failures.put(e.name(), o.failureReason());
            }
            results.addAll(o.results());
            if (!quiet) {
                progress.finished(o);
            }
        }
        GuestComparison comparison = null;
        String comparisonError = null;
        try {
            comparison = GuestComparison.of(results);
        } catch (IllegalArgumentException e) {
            comparisonError = e.getMessage();
        }
        if (json) {
            out.print(Json.write(jsonDocument(results, comparison, comparisonError, failures)));
        } else {
            TextTable t = new TextTable().text("environment").text("verdict").text("first finding");
            for (ResultData r : results) {
                t.row(Escape.of(r.environment()), r.verdict().name(), Escape.of(firstFinding(r)));
            }
            out.print(t.render());
            out.println();
            if (comparison != null) {
                out.print(comparison.text());
            }
        }
        out.flush();
        int written = html.wanted()
                ? html.write(GuestsHtml.addTo(new HtmlReport("flushcheck guests"), results, comparison, failures), err, ExitCodes.OK)
                : ExitCodes.OK;
        for (String f : failures.values()) {
            err.println("flushcheck guests: " + Escape.of(f));
        }
        if (comparisonError != null) {
            err.println("flushcheck guests: no comparison: " + Escape.of(comparisonError));
        }
        if (written != ExitCodes.OK) {
            return written;
        }
        return failures.isEmpty() && comparisonError == null ? ExitCodes.OK : ExitCodes.INTERNAL;
    }

    /**
     * {@code {"results":[...], "comparison":{...}, "failures":[{"environment","reason"}]}}. An environment
     * that gave no result is listed under failures, so that a reader of the JSON alone sees it missing
     * and why, not only a shorter list; when no comparison could be made, {@code comparisonError} says why.
     */
    static Document jsonDocument(List<ResultData> results, GuestComparison comparison, String comparisonError,
                                 Map<String, String> failures) {
        return new Document(results, comparison == null ? null : comparison.document(), comparisonError,
                EnvironmentFailure.of(failures));
    }

    /**
     * {@code flushcheck guests --json}: each component a field, in this order. Public, in a package-private class,
     * only so that core's JSON writer may read its components.
     *
     * @param comparison      left out when no comparison could be made
     * @param comparisonError why not; left out when there is a comparison
     */
    public record Document(List<ResultData> results, @Json.LeftOutWhenNull GuestComparison.Document comparison,
                           @Json.LeftOutWhenNull String comparisonError, List<EnvironmentFailure> failures) {

        public Document {
            results = List.copyOf(results);
            failures = List.copyOf(failures);
        }
    }

    private static String firstFinding(ResultData r) {
        return r.findings().isEmpty() ? "" : r.findings().get(0).message();
    }
}

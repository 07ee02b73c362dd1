package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.Flushcheck;
import io.flushcheck.guest.GuestComparison;
import io.flushcheck.guest.GuestEnvironment;
import io.flushcheck.guest.GuestImage;
import io.flushcheck.guest.GuestOutcome;
import io.flushcheck.guest.GuestRequest;
import io.flushcheck.guest.GuestRunner;
import io.flushcheck.guest.MountKind;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.Escape;
import io.flushcheck.report.Json;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code flushcheck guests [--json] [--rounds N]}: probes the host and every guest mount (overlay, bind
 * mount, named volume, tmpfs) in a Debian bookworm container and prints the host/guest comparison.
 */
final class GuestsCommand implements Subcommand {

    static final String HELP = """
            usage: flushcheck guests [options]

            Probes a directory on the host and the data directory of a Debian bookworm guest container on
            each mount kind (overlay root, bind mount, named volume, tmpfs), then compares them per mode:
            median, p99, flushes per sync, verdict, and the guest/host ratios. A guest whose syncs are far
            faster than the host's real flush on the same disk is called out.
            Needs a Docker engine and the base image of container-images/prepare.sh; on a machine that is
            itself a container set TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost.

            options:
              --json             {"results":[...], "comparison":{...}, "failures":[...]} on stdout: one result
                                 per environment, as for paths, each with "environment": host, or
                                 <image>/<mount kind>; an environment that gave none is in "failures"
                                 as {"environment", "reason"}; "comparisonError" when none was made
              --rounds N         rounds per mode in every environment (default 200)
              --modes a,b,...    sync modes (default: all of this OS): %s
              --mounts a,b,...   mount kinds (default: overlay,bind,volume,tmpfs)
              --host-dir DIR     the host directory; the host probe and the bind mounts use fresh
                                 subdirectories of it (default: the working directory)
              --quiet            no progress on stderr
              -h, --help         this text
            exit codes: 0 compared, 2 bad usage, 3 no Docker engine or a guest failed to run, 4 the output
            could not be written
            """;

    @Override
    public String name() {
        return "guests";
    }

    @Override
    public String summary() {
        return "probe the host and Docker guests (overlay, bind, volume, tmpfs) and compare them";
    }

    @Override
    public int run(List<String> argList, PrintStream out, PrintStream err) throws UsageException {
        Args args = new Args(argList);
        boolean json = false;
        boolean quiet = false;
        int rounds = 200;
        // The guests run Linux, whatever the host is: no macOS-only modes by default.
        List<SyncMode> modes = SyncMode.linux();
        List<MountKind> mounts = List.of(MountKind.values());
        Path hostDir = Path.of("").toAbsolutePath();
        while (args.hasNext()) {
            String a = args.next();
            String opt = Args.baseName(a);
            try {
                switch (opt) {
                    case "-h", "--help" -> {
                        out.printf(HELP, SyncMode.allIds());
                        return ExitCodes.OK;
                    }
                    case "--json" -> json = true;
                    case "--quiet", "-q" -> quiet = true;
                    case "--rounds" -> rounds = Args.intValue(opt, args.value(opt, a), 1, ProbePlan.MAX_ROUNDS);
                    case "--modes" -> modes = SyncMode.parseList(args.value(opt, a));
                    case "--mounts" -> {
                        // A set: each mount kind once, however often it is named.
                        java.util.Set<MountKind> ms = new java.util.LinkedHashSet<>();
                        for (String m : args.value(opt, a).split(",")) {
                            ms.add(MountKind.parse(m));
                        }
                        mounts = List.copyOf(ms);
                    }
                    case "--host-dir" -> hostDir = Args.path(args.value(opt, a));
                    default -> throw new UsageException("unknown option " + a + " (flushcheck guests --help)");
                }
            } catch (IllegalArgumentException e) {
                throw new UsageException(opt + ": " + e.getMessage());
            }
        }
        try {
            // The probe's validator: the same causes in the same words (empty, missing, a loop, ...).
            hostDir = Flushcheck.validateDirectory(hostDir);
        } catch (BadPathException e) {
            throw new UsageException("--host-dir: " + e.getMessage());
        }
        boolean q = quiet;
        GuestRunner runner = new GuestRunner(m -> {
            if (!q) {
                err.println("flushcheck guests: " + Escape.of(m));
            }
        });
        if (!GuestRunner.dockerAvailable()) {
            err.println("flushcheck guests: no Docker engine answers: install docker.io and start dockerd "
                    + "(container-images/prepare.sh does both), or set DOCKER_HOST");
            return ExitCodes.INTERNAL;
        }
        GuestRequest request = GuestRequest.probeOnly(rounds).withModes(modes).withHostDir(hostDir);
        List<GuestEnvironment> envs = new ArrayList<>();
        envs.add(GuestEnvironment.host());
        for (GuestImage image : GuestImage.defaults()) {
            for (MountKind m : mounts) {
                envs.add(GuestEnvironment.guest(image, m));
            }
        }
        List<Map<String, Object>> results = new ArrayList<>();
        Map<String, String> failures = new LinkedHashMap<>(); // environment -> why
        for (GuestEnvironment e : envs) {
            GuestOutcome o;
            try {
                o = runner.run(e, request);
            } catch (RuntimeException ex) {
                failures.put(e.name(), e.name() + ": " + ex.getMessage());
                continue;
            }
            if (o.results().isEmpty()) {
                failures.put(e.name(), o.failureReason());
            }
            results.addAll(o.results());
            if (!q) {
                err.println("flushcheck guests: " + o.name() + ": " + (o.verdict() == null ? "no result" : o.verdict())
                        + String.format(" (%.1f s)", o.elapsedMillis() / 1000.0));
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
            for (Map<String, Object> r : results) {
                out.printf("%-28s %-14s %s%n", Escape.of(r.get("environment")), r.get("verdict"), Escape.of(firstFinding(r)));
            }
            out.println();
            if (comparison != null) {
                out.print(comparison.text());
            }
        }
        out.flush();
        for (String f : failures.values()) {
            err.println("flushcheck guests: " + Escape.of(f));
        }
        if (comparisonError != null) {
            err.println("flushcheck guests: no comparison: " + Escape.of(comparisonError));
        }
        return failures.isEmpty() && comparisonError == null ? ExitCodes.OK : ExitCodes.INTERNAL;
    }

    /**
     * {@code {"results":[...], "comparison":{...}, "failures":[{"environment","reason"}]}}. An environment
     * that gave no result is listed under failures, so that a reader of the JSON alone sees it missing
     * and why, not only a shorter list; when no comparison could be made, {@code comparisonError} says why.
     */
    static Map<String, Object> jsonDocument(List<Map<String, Object>> results, GuestComparison comparison,
                                            String comparisonError, Map<String, String> failures) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("results", new ArrayList<Object>(results));
        if (comparison != null) {
            root.put("comparison", comparison.toMap());
        }
        if (comparisonError != null) {
            root.put("comparisonError", comparisonError);
        }
        List<Object> failed = new ArrayList<>();
        for (Map.Entry<String, String> f : failures.entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("environment", f.getKey());
            m.put("reason", f.getValue());
            failed.add(m);
        }
        root.put("failures", failed);
        return root;
    }

    @SuppressWarnings("unchecked")
    private static String firstFinding(Map<String, Object> r) {
        Object fs = r.get("findings");
        if (fs instanceof List<?> l && !l.isEmpty()) {
            return String.valueOf(((Map<String, Object>) l.get(0)).get("message"));
        }
        return "";
    }
}

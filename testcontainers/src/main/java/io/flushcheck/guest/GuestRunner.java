package io.flushcheck.guest;

import io.flushcheck.probe.ProbeLock;
import io.flushcheck.report.ResultData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * Runs a {@link GuestRequest} in a {@link GuestPlace} and brings everything back as a {@link GuestOutcome}: the
 * host in a child JVM ({@link HostRun}), a guest in a container ({@link ContainerRun}) or wherever another
 * place runs {@link GuestMain}, whose document ({@link GuestProtocol}) becomes the outcome here. Everything made for a
 * run is removed when it ends, failed or not.
 *
 * <p>Docker is found the Testcontainers way; on machines that look like a container themselves set
 * {@code TESTCONTAINERS_RYUK_DISABLED=true} and {@code TESTCONTAINERS_HOST_OVERRIDE=localhost}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class GuestRunner {

    private static final int LOG_TAIL = 4000;
    /** How long one environment's run may take before it is stopped and reported as timed out. */
    static final int TIMEOUT_MINUTES = 30;

    private final Consumer<String> progress;

    public GuestRunner(Consumer<String> progress) {
        this.progress = progress;
    }

    /** True when a Docker engine answers; never throws. */
    public static boolean dockerAvailable() {
        return DockerEngine.answers();
    }

    /**
     * Runs one environment. Holds the JVM-wide {@link ProbeLock}: a guest's syncs land on the host's
     * disks, whose counters every other measurement in this JVM reads too.
     */
    public GuestOutcome run(GuestPlace env, GuestRequest request) {
        long t0 = System.nanoTime();
        return ProbeLock.exclusively(() -> {
            try {
                RunOutput r = env.run(request, progress);
                return outcome(env, r, t0);
            } catch (IOException e) {
                throw new UncheckedIOException(env.name() + ": " + e.getMessage(), e);
            }
        });
    }

    public List<GuestOutcome> runAll(List<? extends GuestPlace> envs, GuestRequest request) {
        List<GuestOutcome> out = new ArrayList<>();
        for (GuestPlace e : envs) {
            out.add(run(e, request));
        }
        return out;
    }

    static GuestOutcome outcome(GuestPlace env, RunOutput run, long t0) {
        List<String> errors = new ArrayList<>();
        List<ResultData> results = List.of();
        List<TestOutcome> tests = List.of();
        if (run.json() == null) {
            errors.add("no result file came back");
        } else {
            try {
                GuestProtocol doc = GuestProtocol.parse(run.json());
                results = doc.results();
                tests = doc.tests();
                errors.addAll(doc.errors());
            } catch (IllegalArgumentException e) {
                errors.add("the result file is not the expected JSON: " + e.getMessage());
            }
        }
        return new GuestOutcome(env, results, tests, errors, run.exitCode(), tail(run.log()),
                (System.nanoTime() - t0) / 1_000_000);
    }

    private static String tail(String s) {
        return s.length() <= LOG_TAIL ? s : "..." + s.substring(s.length() - LOG_TAIL);
    }
}

package io.flushcheck.guest;

import io.flushcheck.report.ResultData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Runs test classes on the host and in every guest image and mount, for a {@code @TestFactory}:
 * one dynamic test per environment, named after it, failing with the failed tests and their reasons.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> durableEverywhere() {
 *     return GuestSuite.of(OrderRepositoryDurabilityTests.class)
 *             .mounts(MountKind.OVERLAY, MountKind.VOLUME, MountKind.TMPFS)
 *             .withProbe(64)            // also probe each data directory and add a comparison test
 *             .dynamicTests();
 * }
 * }</pre>
 *
 * <p>The classes run with {@code java.io.tmpdir} on the environment's data directory, so {@code @TempDir}
 * lands on the mount under test; {@link GuestMain#DATA_DIR_PROPERTY} and {@link GuestMain#ENVIRONMENT_PROPERTY}
 * name it. Without a Docker engine the guest tests abort with the reason, or fail when {@code CI=true}.
 * Inside a guest, a suite yields nothing (no guests within guests).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class GuestSuite {

    private final List<String> classes;
    private List<GuestImage> images = GuestImage.defaults();
    private List<MountKind> mounts = List.of(MountKind.values());
    private boolean host = true;
    private boolean probe;
    private int rounds = 64;
    private Path hostDir = GuestRequest.defaultHostDir();
    private Consumer<String> progress = m -> System.err.println("flushcheck guest: " + m);

    private GuestSuite(List<String> classes) {
        this.classes = List.copyOf(classes);
    }

    public static GuestSuite of(Class<?>... testClasses) {
        return new GuestSuite(Arrays.stream(testClasses).map(Class::getName).toList());
    }

    /** By name, for classes this classpath has but the calling code does not see. */
    public static GuestSuite ofClassNames(String... testClassNames) {
        return new GuestSuite(List.of(testClassNames));
    }

    public GuestSuite images(GuestImage... i) {
        this.images = List.of(i);
        return this;
    }

    public GuestSuite mounts(MountKind... m) {
        this.mounts = List.of(m);
        return this;
    }

    /** Whether to run on the host too (default true). */
    public GuestSuite host(boolean on) {
        this.host = on;
        return this;
    }

    /** Also probe each environment's data directory ({@code rounds} per mode) and add a comparison test. */
    public GuestSuite withProbe(int probeRounds) {
        this.probe = true;
        this.rounds = probeRounds;
        return this;
    }

    /** Where the host's data and the bind mounts' sources are made (default: the working directory). */
    public GuestSuite hostDir(Path dir) {
        this.hostDir = dir;
        return this;
    }

    public GuestSuite progress(Consumer<String> p) {
        this.progress = p;
        return this;
    }

    public List<GuestEnvironment> environments() {
        List<GuestEnvironment> envs = new ArrayList<>();
        if (host) {
            envs.add(GuestEnvironment.host());
        }
        for (GuestImage i : images) {
            for (MountKind m : mounts) {
                envs.add(GuestEnvironment.guest(i, m));
            }
        }
        return envs;
    }

    GuestRequest request() {
        GuestRequest r = new GuestRequest(classes, false, false, rounds,
                io.flushcheck.probe.ProbePlan.verification().modes(), hostDir);
        return probe ? r.withProbe(true, rounds) : r;
    }

    /** Runs every environment now, in order. */
    public List<GuestOutcome> run() {
        GuestRunner runner = new GuestRunner(progress);
        List<GuestOutcome> out = new ArrayList<>();
        for (GuestEnvironment e : environments()) {
            if (!e.isHost()) {
                requireDocker(e);
            }
            out.add(runner.run(e, request()));
        }
        return out;
    }

    /**
     * One dynamic test per environment ({@code host}, {@code debian-bookworm-jre17/overlay}, ...), each
     * running the classes there when it executes; with {@link #withProbe} a last one prints the host/guest
     * comparison and fails when it cannot be made.
     */
    public Stream<DynamicTest> dynamicTests() {
        if (System.getProperty(GuestMain.ENVIRONMENT_PROPERTY) != null) {
            return Stream.empty();
        }
        GuestRunner runner = new GuestRunner(progress);
        GuestRequest request = request();
        List<ResultData> results = new ArrayList<>();
        List<DynamicTest> tests = new ArrayList<>();
        for (GuestEnvironment e : environments()) {
            tests.add(DynamicTest.dynamicTest(e.name(), () -> {
                if (!e.isHost()) {
                    requireDocker(e);
                }
                GuestOutcome o = runner.run(e, request);
                results.addAll(o.results());
                progress.accept(o.summary());
                if (o.tests().isEmpty() && o.errors().isEmpty() && !classes.isEmpty()) {
                    throw new AssertionFailedError(e.name() + ": no tests ran (are " + classes
                            + " test classes on the copied classpath?)\n" + o.log());
                }
                if (!o.ok()) {
                    throw new AssertionFailedError(o.failureReason());
                }
            }));
        }
        if (probe) {
            tests.add(DynamicTest.dynamicTest("host/guest comparison", () -> {
                GuestComparison c;
                try {
                    c = GuestComparison.of(results);
                } catch (IllegalArgumentException ex) {
                    throw new AssertionFailedError("no comparison: " + ex.getMessage());
                }
                System.out.print(c.text());
            }));
        }
        return tests.stream();
    }

    private static void requireDocker(GuestEnvironment e) {
        if (GuestRunner.dockerAvailable()) {
            return;
        }
        String why = e.name() + " needs a Docker engine and none answers (install and start one, or set DOCKER_HOST; "
                + "the guests start FROM the image " + GuestImage.baseImage() + ", which must be on the engine, or name "
                + "another with -D" + GuestImage.BASE_IMAGE_KEY + "=IMAGE; where the machine is itself a container set "
                + "TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost)";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionFailedError("CI=true: " + why);
        }
        throw new TestAbortedException(why);
    }
}

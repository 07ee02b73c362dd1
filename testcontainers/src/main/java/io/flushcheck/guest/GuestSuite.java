package io.flushcheck.guest;

import io.flushcheck.report.ResultData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

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
 * <p>The containers run the image {@link GuestImageChoice} chooses for the classes' Java release (printed with why),
 * unless {@link #images} names others; a JUnit or Testcontainers below flushcheck's floor is refused first.
 *
 * <p>The classes run with {@code java.io.tmpdir} on the environment's data directory, so {@code @TempDir}
 * lands on the mount under test; {@link GuestMain#DATA_DIR_PROPERTY} and {@link GuestMain#ENVIRONMENT_PROPERTY}
 * name it. Where a place cannot run (no Docker engine, no QEMU) its test aborts with the reason, or fails with
 * {@code flushcheck.missing-tool=fail}.
 * Inside a guest, a suite yields nothing (no guests within guests).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class GuestSuite {

    private final List<String> classes;
    /** Null: the one {@link GuestImageChoice} chooses for the classes. */
    private List<GuestImage> images;
    private List<MountKind> mounts = List.of(MountKind.values());
    private List<GuestPlace> others = List.of();
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

    /** The images to run in, in place of the one {@link GuestImageChoice} chooses; none runs no containers. */
    public GuestSuite images(GuestImage... i) {
        this.images = List.of(i);
        return this;
    }

    public GuestSuite mounts(MountKind... m) {
        this.mounts = List.of(m);
        return this;
    }

    /**
     * Places beyond the host and the containers, run after them in this order: for example QEMU guests from
     * {@code flushcheck-vm}, {@code also(VmGuest.of(CacheMode.NONE), VmGuest.of(CacheMode.UNSAFE))}. Call
     * {@link #images} with no image for no containers.
     */
    public GuestSuite also(GuestPlace... places) {
        this.others = List.of(places);
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

    /**
     * The places in the order they run: the host, each image on each mount, then {@link #also}'s. Without
     * {@link #images}, this chooses the image ({@link GuestImageChoice}) and says which and why.
     */
    public List<GuestPlace> environments() {
        List<GuestPlace> envs = new ArrayList<>();
        if (host) {
            envs.add(GuestEnvironment.host());
        }
        List<GuestImage> chosen = images;
        if (chosen == null && !mounts.isEmpty()) {
            chosen = List.of(GuestRunner.dockerAvailable() ? GuestImageChoice.forTestClasses(classes, progress)
                    : GuestImage.unavailable("no Docker engine answers"));
        }
        for (GuestImage i : chosen == null ? List.<GuestImage>of() : chosen) {
            for (MountKind m : mounts) {
                envs.add(GuestEnvironment.guest(i, m));
            }
        }
        envs.addAll(others);
        return envs;
    }

    /** Refuses a JUnit, or for containers a Testcontainers, below the floor ({@link GuestFloor}). */
    private void requireFloor() {
        boolean containers = !mounts.isEmpty() && (images == null || !images.isEmpty());
        String why = GuestFloor.suiteRefusal(containers);
        if (why != null) {
            throw new IllegalStateException(why);
        }
    }

    GuestRequest request() {
        GuestRequest r = new GuestRequest(classes, false, false, rounds,
                io.flushcheck.probe.ProbePlan.verification().modes(), hostDir);
        return probe ? r.withProbe(true, rounds) : r;
    }

    /**
     * Runs every environment now, in order.
     *
     * @throws IllegalStateException when the JUnit or Testcontainers on the class path is older than flushcheck's
     *     floor, naming the version found and the one needed
     */
    public List<GuestOutcome> run() {
        requireFloor();
        GuestRunner runner = new GuestRunner(progress);
        List<GuestOutcome> out = new ArrayList<>();
        for (GuestPlace e : environments()) {
            e.requireAvailable();
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
        requireFloor();
        GuestRunner runner = new GuestRunner(progress);
        GuestRequest request = request();
        List<ResultData> results = new ArrayList<>();
        List<DynamicTest> tests = new ArrayList<>();
        for (GuestPlace e : environments()) {
            tests.add(DynamicTest.dynamicTest(e.name(), () -> {
                e.requireAvailable();
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
}

package io.flushcheck.guest;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.Flushcheck;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.ResultData;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.apiguardian.api.API;

/**
 * The runner inside an environment (a guest container, or a child JVM on the host): probes the data
 * directory with flushcheck and runs the given test classes with the JUnit Platform launcher, then
 * writes everything as one JSON document the host reads back ({@code GuestProtocol}: the environment, the
 * data directory, the Java version, the results, each test's outcome, a summary and the errors).
 *
 * <p>On a JUnit older than flushcheck's floor ({@link GuestFloor}) no test runs, and the document's one error names
 * the version found and the one needed.
 *
 * <p>{@code java.io.tmpdir} is set to the data directory by the host, so {@code @TempDir} and temp
 * files of the tests land on the mount under test. Exit code 0 whenever the document was written
 * (test failures are data, not an exit code), 2 for bad usage.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class GuestMain {

    /** System property (and {@code FLUSHCHECK_GUEST_ENVIRONMENT} variable) naming the environment. */
    public static final String ENVIRONMENT_PROPERTY = "flushcheck.guest.environment";
    /** System property (and {@code FLUSHCHECK_GUEST_DATA_DIR} variable) naming the data directory under test. */
    public static final String DATA_DIR_PROPERTY = "flushcheck.guest.dataDir";

    private GuestMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        String environment = "unnamed";
        Path data = null;
        Path out = null;
        boolean probe = false;
        boolean alwaysProbe = false;
        ProbePlan plan = ProbePlan.verification();
        List<String> classes = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--environment" -> environment = args[++i];
                    case "--data" -> data = Path.of(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    case "--probe" -> probe = true;
                    case "--always-probe" -> alwaysProbe = true;
                    case "--rounds" -> plan = plan.withRounds(Integer.parseInt(args[++i]));
                    case "--modes" -> plan = plan.withModes(SyncMode.parseList(args[++i]));
                    case "--tests" -> {
                        for (String c : args[++i].split(",")) {
                            if (!c.isBlank()) {
                                classes.add(c.trim());
                            }
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            if (data == null || out == null) {
                throw new IllegalArgumentException("--data DIR and --out FILE are required");
            }
        } catch (RuntimeException e) {
            System.err.println("flushcheck guest: " + e.getMessage());
            return 2;
        }
        System.setProperty(ENVIRONMENT_PROPERTY, environment);
        System.setProperty(DATA_DIR_PROPERTY, data.toString());
        List<String> errors = new ArrayList<>();
        List<ResultData> results = new ArrayList<>();
        if (probe) {
            String env = environment;
            try {
                CheckResult r = Flushcheck.check(data, new CheckOptions(plan, CheckOptions.defaults().thresholds(),
                        alwaysProbe), (mode, done, total) -> {
                            if (done == 0) {
                                System.err.printf("flushcheck guest %s: %s, %d rounds%n", env, mode.id(), total);
                            }
                        });
                results.add(ResultData.of(r).withEnvironment(environment));
            } catch (RuntimeException e) {
                errors.add("probe of " + data + " failed: " + e);
            }
        }
        // Below JUnit's floor the launcher may fail anywhere; one message naming both versions says why instead.
        String floor = classes.isEmpty() ? null : GuestFloor.junitRefusal();
        if (floor != null) {
            errors.add(floor);
        }
        List<TestOutcome> tests = classes.isEmpty() || floor != null ? List.of() : runTests(classes, errors);
        GuestProtocol doc = new GuestProtocol(environment, data.toString(), System.getProperty("java.version"), results,
                tests, errors);
        try {
            Files.createDirectories(out.toAbsolutePath().getParent());
            Files.writeString(out, doc.json(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println("flushcheck guest: cannot write " + out + ": " + e);
            return 3;
        }
        return 0;
    }

    private static List<TestOutcome> runTests(List<String> classes, List<String> errors) {
        List<TestOutcome> outcomes = new ArrayList<>();
        LauncherDiscoveryRequestBuilder b = LauncherDiscoveryRequestBuilder.request();
        for (String c : classes) {
            b.selectors(DiscoverySelectors.selectClass(c));
        }
        LauncherDiscoveryRequest request = b.build();
        Map<String, Long> started = new ConcurrentHashMap<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionStarted(TestIdentifier id) {
                started.put(id.getUniqueId(), System.nanoTime());
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest() || isClass(id)) {
                    outcomes.add(new TestOutcome(id.getUniqueId(), className(id), id.getDisplayName(), TestOutcome.Status.SKIPPED,
                            reason, 0));
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                boolean report = id.isTest() || (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL
                        && id.getSource().isPresent());
                if (!report) {
                    return;
                }
                Long t0 = started.get(id.getUniqueId());
                long millis = t0 == null ? 0 : (System.nanoTime() - t0) / 1_000_000;
                TestOutcome.Status status = switch (result.getStatus()) {
                    case SUCCESSFUL -> TestOutcome.Status.SUCCESSFUL;
                    case ABORTED -> TestOutcome.Status.ABORTED;
                    case FAILED -> TestOutcome.Status.FAILED;
                };
                String message = result.getThrowable().map(GuestMain::describe).orElse(null);
                outcomes.add(new TestOutcome(id.getUniqueId(), className(id), id.getDisplayName(), status, message,
                        millis));
            }
        };
        try {
            Launcher launcher = LauncherFactory.create();
            launcher.execute(request, listener);
        } catch (RuntimeException | LinkageError e) {
            errors.add("the JUnit launcher failed: " + describe(e));
        }
        return outcomes;
    }

    private static boolean isClass(TestIdentifier id) {
        return id.getSource().filter(s -> s instanceof ClassSource).isPresent();
    }

    private static String className(TestIdentifier id) {
        return id.getSource().map(s -> s instanceof MethodSource m ? m.getClassName()
                : s instanceof ClassSource c ? c.getClassName() : null).orElse(null);
    }

    /** The throwable's class and message, then its first stack lines: enough to read the reason on the host. */
    static String describe(Throwable t) {
        StringWriter sw = new StringWriter();
        t.printStackTrace(new PrintWriter(sw));
        String[] lines = sw.toString().split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(lines.length, 8); i++) {
            sb.append(i == 0 ? "" : "\n").append(lines[i].stripTrailing());
        }
        return sb.toString();
    }
}

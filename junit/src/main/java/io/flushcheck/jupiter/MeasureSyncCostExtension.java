package io.flushcheck.jupiter;

import io.flushcheck.CheckOptions;
import io.flushcheck.CheckResult;
import io.flushcheck.JunitFloor;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.ResultJson;
import io.flushcheck.report.TextReport;
import io.flushcheck.text.Escape;
import io.flushcheck.text.Numbers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Measures in {@code beforeAll} (annotation on the class) or {@code beforeEach} (on the method), reports, injects. */
class MeasureSyncCostExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {

    static final String NAME = "@MeasureSyncCost";
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(MeasureSyncCostExtension.class);

    /** Refuses, naming the version found and the one needed, a JUnit older than flushcheck supports. */
    MeasureSyncCostExtension() {
        JunitFloor.require(ExtensionContext.class, AnnotationSupport.class, ExtensionConfigurationException::new);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Optional<MeasureSyncCost> onClass = RequiresRealFlushExtension.findOnClass(context.getRequiredTestClass(),
                MeasureSyncCost.class);
        if (onClass.isPresent()) {
            measure(context, onClass.get());
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Optional<MeasureSyncCost> onMethod = AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), MeasureSyncCost.class);
        if (onMethod.isPresent()) {
            measure(context, onMethod.get());
        } else {
            // Class-level measurement: publish it for each test too, so every test's report shows the figures.
            find(context).ifPresent(m -> publish(context, m.result()));
        }
    }

    private static void measure(ExtensionContext context, MeasureSyncCost annotation) {
        ConfigReader settings = new ConfigReader(context);
        CheckOptions options = new CheckOptions(settings.measurePlan(annotation), settings.thresholds(), true);
        Gate gate = Gate.of(annotation);
        gate.requireRounds(options.plan().rounds());
        CheckResult result = CheckCache.check(context, settings.target(annotation.path()), options, NAME);
        Path[] files = writeReports(context, settings, result);
        SyncCostMeasurement m = new SyncCostMeasurement(result, files[0], files[1]);
        context.getStore(NAMESPACE).put(SyncCostMeasurement.class, m);
        publish(context, result);
        gate(gate, result);
    }

    private static void publish(ExtensionContext context, CheckResult result) {
        context.publishReportEntry("flushcheck.verdict", Escape.of(result.path()) + ": " + result.verdict());
        // Maven Surefire drops report entries but keeps each test's stdout in its XML report.
        System.out.println("flushcheck: " + Escape.of(result.path()) + " is " + result.verdict());
        for (SyncCost c : result.costs()) {
            System.out.print(TextReport.costLine(c));
            Map<String, String> entry = new LinkedHashMap<>();
            String p = "flushcheck." + c.mode().id() + ".";
            entry.put(p + "p50Micros", Numbers.micros(c.p50Micros()));
            entry.put(p + "p99Micros", Numbers.micros(c.p99Micros()));
            entry.put(p + "maxMicros", Numbers.micros(c.maxMicros()));
            entry.put(p + "roundsPerSecond", String.format(Locale.ROOT, "%.0f", c.roundsPerSecond()));
            entry.put(p + "flushesPerSync", Double.isNaN(c.flushesPerSync()) ? "n/a"
                    : String.format(Locale.ROOT, "%.2f", c.flushesPerSync()));
            context.publishReportEntry(entry);
        }
    }

    private static void gate(Gate gate, CheckResult result) {
        if (!gate.active()) {
            return;
        }
        for (SyncCost c : result.costs()) {
            double value = c.percentileMicros(gate.percentile());
            if (c.mode().syncs() && value > gate.maxMicros()) {
                StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                        "%s: %s %s is %s us in %s, above the limit (the %s of %d rounds: %d rounds lie above it); the distribution:%n",
                        gate.shown(), c.mode().id(), gate.label(), Numbers.micros(value), Escape.of(result.path()), gate.label(),
                        c.rounds(), gate.roundsAbove(c.rounds())));
                TextReport.appendCost(sb, c, true);
                throw new AssertionError(sb.toString());
            }
        }
    }

    private static Path[] writeReports(ExtensionContext context, ConfigReader settings, CheckResult result) {
        Path dir = ReportDir.of(settings);
        String name = context.getRequiredTestClass().getName()
                + context.getTestMethod().map(m -> "." + m.getName()).orElse("");
        try {
            Files.createDirectories(dir);
            Path json = dir.resolve(name + ".json");
            Path text = dir.resolve(name + ".txt");
            Files.writeString(json, ResultJson.of(List.of(result)));
            Files.writeString(text, TextReport.of(result, true));
            return new Path[] {json, text};
        } catch (IOException e) {
            throw new UncheckedIOException(NAME + ": cannot write reports to " + Escape.of(dir) + " (set "
                    + FlushcheckConfig.REPORT_DIR_KEY + " to a writable directory)", e);
        }
    }

    private static Optional<SyncCostMeasurement> find(ExtensionContext context) {
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            SyncCostMeasurement m = c.get().getStore(NAMESPACE).get(SyncCostMeasurement.class, SyncCostMeasurement.class);
            if (m != null) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        // Methods only: a constructor runs before beforeEach has measured anything.
        return parameterContext.getParameter().getType() == SyncCostMeasurement.class
                && parameterContext.getDeclaringExecutable() instanceof java.lang.reflect.Method;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return find(extensionContext).orElseThrow(() -> new org.junit.jupiter.api.extension.ParameterResolutionException(
                "a SyncCostMeasurement parameter needs @MeasureSyncCost on the test method or its class"));
    }
}

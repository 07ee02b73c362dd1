package io.flushcheck.jupiter;

import io.flushcheck.CheckResult;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every measurement of a test run on one page: each check {@code @RequiresRealFlush},
 * {@code @MeasureSyncCost} and {@code RealDiskTempDirFactory} ran is kept in the root store, and when the
 * run ends (the root store closes) the page is written to {@code index.html} in the report directory
 * ({@value FlushcheckConfig#REPORT_DIR_KEY}, by default {@code target/flushcheck}), beside the JSON and text
 * reports of {@code @MeasureSyncCost}. Only a run that measured with {@code @MeasureSyncCost} writes it: a run
 * that only checked leaves the project as it found it, as it always has.
 */
final class RunReport implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RunReport.class);

    private final Path file;
    private final List<CheckResult> results = new ArrayList<>();
    private boolean measured;
    private boolean written;

    private RunReport(Path file) {
        this.file = file;
    }

    /**
     * Keeps {@code result} for the run's page and returns it.
     *
     * @param what the annotation that asked for the check; {@code @MeasureSyncCost} makes the run write its page
     */
    static CheckResult recorded(ExtensionContext context, CheckResult result, String what) {
        Path dir = ReportDir.of(new ConfigReader(context));
        RunReport report = context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(RunReport.class,
                k -> new RunReport(dir.resolve("index.html")), RunReport.class);
        report.add(result, MeasureSyncCostExtension.NAME.equals(what));
        return result;
    }

    private synchronized void add(CheckResult r, boolean measurement) {
        results.add(r);
        measured |= measurement;
    }

    /** Path of the page this run writes. */
    Path file() {
        return file;
    }

    @Override
    public synchronized void close() {
        if (written || !measured) {
            return;
        }
        written = true;
        try {
            Files.createDirectories(file.getParent());
            new HtmlReport("flushcheck: the checks of this test run").addResults(results).writeTo(file);
        } catch (IOException | RuntimeException e) {
            // The tests have run and passed or failed on their own; a page that cannot be written must not change that.
            System.err.println("flushcheck: cannot write the run's report " + Escape.of(file.toString()) + ": "
                    + Escape.of(String.valueOf(e.getMessage())) + " (set " + FlushcheckConfig.REPORT_DIR_KEY
                    + " to a writable directory)");
        }
    }
}

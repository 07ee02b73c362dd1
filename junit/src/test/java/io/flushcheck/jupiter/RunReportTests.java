package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The run's {@code index.html}: every check the run made, on one page in the report directory, written
 * when the run ends. (How the page renders is the report's own test, in a real browser, in the command's
 * module; here: that the run's measurements are all on it.)
 */
class RunReportTests {

    @Test
    void oneRunWritesOnePageWithEveryCheckItMade() throws Exception {
        Path disk = Files.createDirectories(Path.of("target", "flushcheck-it", "run-report").toAbsolutePath());
        Path reports = Files.createDirectories(Path.of("target", "flushcheck-it", "run-report-pages").toAbsolutePath());
        Path page = reports.resolve("index.html");
        Files.deleteIfExists(page);
        EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(MeasureSyncCostExtensionTests.MeasuredTestCases.class),
                        selectClass(MeasureSyncCostExtensionTests.ClassLevelTestCases.class))
                .configurationParameters(Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                        FlushcheckConfig.REPORT_DIR_KEY, reports.toString()))
                .execute().testEvents().assertStatistics(s -> s.started(3).succeeded(3));

        String html = Files.readString(page);
        // Two measurements (different plans on the same storage): two sections, each with its modes' plots.
        assertThat(count(html, "<section class=\"report-section\" id=\"path-")).isEqualTo(2);
        assertThat(count(html, "<svg[^>]*class=\"plot histogram\"[^>]*data-mode=\"overwrite-fdatasync\"")).isEqualTo(1);
        assertThat(count(html, "<svg[^>]*class=\"plot histogram\"[^>]*data-mode=\"no-sync\"")).isEqualTo(1);
        assertThat(count(html, "<svg[^>]*class=\"plot histogram\"[^>]*data-mode=\"append-fsync\"")).isEqualTo(1);
        assertThat(count(html, "<svg[^>]*class=\"plot percentiles\"")).isEqualTo(3);
        assertThat(html).contains("<h2>" + disk + "</h2>", "REAL_FLUSH", "Paths side by side");
    }

    @Test
    void aRunThatOnlyCheckedLeavesNoPage() throws Exception {
        Path disk = Files.createDirectories(Path.of("target", "flushcheck-it", "run-report").toAbsolutePath());
        Path reports = Path.of("target", "flushcheck-it", "run-report-none").toAbsolutePath();
        Files.deleteIfExists(reports.resolve("index.html"));
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(RequiresRealFlushExtensionTests.ClassLevelTestCases.class))
                .configurationParameters(Map.of(FlushcheckConfig.TARGET_KEY, disk.toString(),
                        FlushcheckConfig.REPORT_DIR_KEY, reports.toString()))
                .execute().testEvents().assertStatistics(s -> s.failed(0));
        assertThat(reports.resolve("index.html")).doesNotExist();
    }

    private static int count(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}

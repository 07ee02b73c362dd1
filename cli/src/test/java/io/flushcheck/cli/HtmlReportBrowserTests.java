package io.flushcheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.report.JsonInput;
import io.flushcheck.report.TextReport;
import io.flushcheck.testing.Checks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code --html}: the page of a probe (two directories on the build's disk and /dev/shm) and of the SQLite
 * matrix, opened in headless Chromium with every proxy closed. What was laid out is asked of the browser
 * (plots, bars with a size, axis titles, curves); the figures come from the same run's {@code --json}.
 * Screenshots are left in target/html-report-screenshots for a person to look at.
 */
class HtmlReportBrowserTests {

    @Test
    @SuppressWarnings("unchecked")
    void theProbesPageDrawsEveryModeOfEveryMeasuredPathAndTheComparisons() throws Exception {
        Path base = Path.of("target", "html-report").toAbsolutePath();
        Path a = Checks.freshDir(base, "disk-a");
        Path b = Checks.freshDir(base, "disk-b");
        Path page = base.resolve("probe.html");
        InProcess.Run run = InProcess.run("--json", "--html", page.toString(), "--rounds", "100", "--modes",
                "append-fdatasync,overwrite-fdatasync,dsync", a.toString(), "/dev/shm", b.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        List<Map<String, Object>> results = (List<Map<String, Object>>) JsonInput.parseObject(run.out()).get("results");

        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(page, 1200);
            PageChecks.selfContained(page, browser);
            browser.screenshot(PageChecks.screenshotDir().resolve("probe.png"));
            for (String id : List.of("path-1", "path-2", "paths-compared")) {
                browser.screenshot("#" + id, PageChecks.screenshotDir().resolve("probe-" + id + ".png"));
            }

            List<Map<String, Object>> sections = PageChecks.sections(browser);
            assertThat(sections).extracting(s -> s.get("heading")).containsExactly(a.toString(), "/dev/shm", b.toString(),
                    "Paths side by side");
            assertThat(sections).extracting(s -> s.get("verdict")).containsExactly("REAL_FLUSH", "NO_REAL_FLUSH", "REAL_FLUSH", null);
            assertThat(whole(sections.get(1).get("findings"))).as("/dev/shm's findings in its headline").isEqualTo(3);

            List<Map<String, Object>> plots = PageChecks.plots(browser);
            for (int path : new int[] {0, 2}) {
                String section = "path-" + (path + 1);
                List<Map<String, Object>> costs = (List<Map<String, Object>>) results.get(path).get("costs");
                assertThat(costs).hasSize(3);
                for (Map<String, Object> cost : costs) {
                    String mode = (String) cost.get("mode");
                    Map<String, Object> histogram = plot(plots, section, "histogram", mode);
                    List<Map<String, Object>> buckets = (List<Map<String, Object>>) cost.get("histogram");
                    long nonEmpty = buckets.stream().filter(k -> whole(k.get("count")) > 0).count();
                    assertThat(whole(histogram.get("bars"))).as("%s %s: one bar per log2 bucket", section, mode)
                            .isEqualTo(buckets.size());
                    assertThat(whole(histogram.get("drawnBars"))).as("%s %s: a bar with a size per non-empty bucket", section, mode)
                            .isEqualTo(nonEmpty);
                    assertThat(histogram.get("axisTitles")).asList().containsExactly("rounds", "round latency, bucket from (µs, log2)");
                    assertThat(num(histogram.get("height"))).isGreaterThan(100);
                    Map<String, Object> curve = plot(plots, section, "percentiles", mode);
                    assertThat(num(curve.get("curveLength"))).as("%s %s: the percentile curve is drawn", section, mode)
                            .isGreaterThan(200);
                    assertThat(curve.get("ticks")).asList().contains("0%", "90%", "99%");
                    assertThat(curve.get("axisTitles")).asList().hasSize(2).contains("percentile (log scale of 1/(1-p))")
                            .containsAnyOf("latency (µs)", "latency (ms)");
                    // Rounds left out of the latencies are said under the mode's figures, in the text report's words.
                    long rounds = whole(cost.get("rounds"));
                    long kept = whole(cost.get("latencyRounds"));
                    assertThat(leftOutLine(browser, section, mode)).as("%s %s: %d of %d rounds in the latencies", section,
                            mode, kept, rounds).isEqualTo(kept == rounds ? "none"
                                    : TextReport.latenciesLeftOut(kept, rounds - kept));
                }
                Map<String, Object> modes = plot(plots, section, "compare-modes", null);
                assertThat(whole(modes.get("drawnBars"))).as("p50 and p99 of three modes").isEqualTo(6);
            }
            assertThat(plots).filteredOn(p -> "path-2".equals(p.get("section"))).as("/dev/shm ran no loop").isEmpty();
            Map<String, Object> paths = plot(plots, "paths-compared", "compare-paths", null);
            assertThat(whole(paths.get("drawnBars"))).as("three modes on two measured paths").isEqualTo(6);
            assertThat(plots).hasSize(2 * (3 * 2 + 1) + 1);
        }
    }

    @Test
    void theSqliteMatrixIsATableColouredByRowsPerSecondWithFlushesPerCommit() throws Exception {
        Path base = Path.of("target", "html-report").toAbsolutePath();
        Path dir = Checks.freshDir(base, "sqlite");
        Path page = base.resolve("sqlite.html");
        InProcess.Run run = InProcess.run("sqlite", "--html", page.toString(), "--journal-modes", "DELETE,WAL",
                "--synchronous", "OFF,FULL", "--fullfsync", "0", "--batches", "1,100", "--rows", "200",
                "--max-cell-seconds", "1", dir.toString());
        assertThat(run.exit()).as(run.err()).isZero();

        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(page, 1100);
            PageChecks.selfContained(page, browser);
            browser.screenshot(PageChecks.screenshotDir().resolve("sqlite.png"));
            List<Map<String, Object>> rows = PageChecks.maps(browser.evaluate("""
                    JSON.stringify([...document.querySelectorAll('table.matrix tr.cell')].map(tr => ({
                      cells: [...tr.children].map(td => td.textContent),
                      background: getComputedStyle(tr).backgroundColor,
                      height: tr.getBoundingClientRect().height})))"""));
            assertThat(rows).hasSize(8);
            assertThat(rows).allSatisfy(r -> assertThat(num(r.get("height"))).isGreaterThan(10));
            // The fastest cell is the deepest green, the slowest the palest: its lightness is the sum of its channels.
            Map<String, Object> fastest = rows.get(0);
            Map<String, Object> slowest = rows.get(0);
            for (Map<String, Object> r : rows) {
                if (rate(r) > rate(fastest)) {
                    fastest = r;
                }
                if (rate(r) < rate(slowest)) {
                    slowest = r;
                }
            }
            assertThat(lightness(fastest)).as("fastest %s, slowest %s", fastest, slowest).isLessThan(lightness(slowest) - 60);
            // DELETE/FULL commits sync the journal and the database: flushes per commit, counted on this disk.
            Map<String, Object> deleteFull = rows.stream().filter(r -> cell(r, 0).equals("DELETE") && cell(r, 1).equals("FULL")
                    && cell(r, 3).equals("1")).findFirst().orElseThrow();
            assertThat(Double.parseDouble(cell(deleteFull, 6))).isGreaterThanOrEqualTo(2);
            assertThat(PageChecks.sections(browser)).singleElement().satisfies(s -> assertThat(s.get("verdict")).isEqualTo("REAL_FLUSH"));
        }
        assertThat(Files.list(dir)).as("the matrix's databases are gone").isEmpty();
    }

    /** The visible line under a mode's figures that says which rounds its latencies leave out; "none" when absent. */
    private static String leftOutLine(HeadlessChromium browser, String section, String mode) throws Exception {
        return browser.evaluate("(() => { const p = document.querySelector('#" + section + " article.mode[data-mode=\"" + mode
                + "\"] .left-out'); return !p ? 'none' : p.offsetHeight > 0 ? p.innerText : 'hidden'; })()");
    }

    static Map<String, Object> plot(List<Map<String, Object>> plots, String section, String kind, String mode) {
        return plots.stream().filter(p -> section.equals(p.get("section")) && kind.equals(p.get("kind"))
                && (mode == null || mode.equals(p.get("mode")))).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " plot of " + mode + " in " + section + ": " + plots));
    }

    static long whole(Object o) {
        return ((Number) o).longValue();
    }

    static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private static String cell(Map<String, Object> row, int i) {
        return String.valueOf(((List<Object>) row.get("cells")).get(i)).trim();
    }

    private static double rate(Map<String, Object> row) {
        return Double.parseDouble(cell(row, 4).replace(",", "").replace(" (time limit)", ""));
    }

    /** r + g + b of a computed {@code rgb(r, g, b)}. */
    private static int lightness(Map<String, Object> row) {
        String bg = String.valueOf(row.get("background"));
        int sum = 0;
        for (String part : bg.substring(bg.indexOf('(') + 1, bg.indexOf(')')).split(",")) {
            sum += Integer.parseInt(part.trim());
        }
        return sum;
    }
}

package io.flushcheck.cli.guests;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.HeadlessChromium;
import io.flushcheck.cli.InProcess;
import io.flushcheck.cli.PageChecks;
import io.flushcheck.guest.GuestTesting;
import io.flushcheck.testing.Checks;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code flushcheck guests --html}: the host against a bind-mounted and a tmpfs guest, rendered in headless
 * Chromium. Per mode one comparison of the three environments (p50 and p99 bars with the guest/host
 * ratios beside them), the tmpfs guest called out, and each environment's own histograms and curves.
 */
class GuestsHtmlBrowserTests {

    @Test
    void theHostAndItsGuestsAreComparedSideBySideWithRatios() throws Exception {
        GuestTesting.requireDockerAndBaseImage();
        Path base = Path.of("target", "html-report").toAbsolutePath();
        Path host = Checks.freshDir(base, "guests-host");
        Path page = base.resolve("guests.html");
        InProcess.Run run = InProcess.run("guests", "--html", page.toString(), "--rounds", "64", "--modes",
                "append-fsync,overwrite-fdatasync", "--mounts", "bind,tmpfs", "--host-dir", host.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        // Off a terminal: the image the containers run in and why, then one line per environment, as it ends.
        List<String> err = run.err().lines().map(l -> l.replaceAll(" \\([0-9.]+ s\\)$", "")).toList();
        assertThat(err).as(run.err()).isNotEmpty();
        assertThat(err.get(0)).startsWith("flushcheck guests: guest image ");
        assertThat(err.subList(1, err.size())).containsExactly(
                "flushcheck guests: host: REAL_FLUSH", "flushcheck guests: debian-bookworm-jre17/bind: REAL_FLUSH",
                "flushcheck guests: debian-bookworm-jre17/tmpfs: NO_REAL_FLUSH");

        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(page, 1200);
            PageChecks.selfContained(page, browser);
            browser.screenshot(PageChecks.screenshotDir().resolve("guests.png"));
            browser.screenshot("#guests-compared", PageChecks.screenshotDir().resolve("guests-compared.png"));

            List<Map<String, Object>> sections = PageChecks.sections(browser);
            assertThat(sections).extracting(s -> s.get("heading")).containsExactly("Host against guests", "host",
                    "debian-bookworm-jre17/bind", "debian-bookworm-jre17/tmpfs", "Paths side by side");
            assertThat(sections).extracting(s -> s.get("verdict")).containsExactly(null, "REAL_FLUSH", "REAL_FLUSH",
                    "NO_REAL_FLUSH", null);
            assertThat(browser.evaluate("document.querySelector('#guests-compared .callout').textContent"))
                    .contains("debian-bookworm-jre17/tmpfs", "faster than the host's real flush");

            List<Map<String, Object>> plots = PageChecks.plots(browser);
            List<Map<String, Object>> compared = plots.stream().filter(p -> "compare-guests".equals(p.get("kind"))).toList();
            assertThat(compared).hasSize(2);
            for (Map<String, Object> c : compared) {
                assertThat(((Number) c.get("drawnBars")).longValue()).as("p50 and p99 of three environments").isEqualTo(6);
                // The host's bars say x1.00; each guest's its ratio to the host.
                assertThat(c.get("values")).asList().hasSize(6).allSatisfy(v -> assertThat((String) v).contains("×"));
            }
            for (String env : List.of("environment-1", "environment-2", "environment-3")) {
                for (String mode : List.of("append-fsync", "overwrite-fdatasync")) {
                    assertThat(plots).as("%s %s", env, mode).anySatisfy(p -> {
                        assertThat(p).containsEntry("section", env).containsEntry("kind", "histogram").containsEntry("mode", mode);
                        assertThat(((Number) p.get("drawnBars")).longValue()).isPositive();
                    });
                    assertThat(plots).as("%s %s", env, mode).anySatisfy(p -> {
                        assertThat(p).containsEntry("section", env).containsEntry("kind", "percentiles").containsEntry("mode", mode);
                        assertThat(((Number) p.get("curveLength")).doubleValue()).isGreaterThan(200);
                    });
                }
            }
        }
    }
}

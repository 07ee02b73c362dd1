package io.flushcheck.report.html;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.report.TextReport;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A mode's article on the HTML page says how many rounds its latencies hold when some were left out (the first ones
 * after the probe's idle windows), in the words of the text report and the JSON's {@code latencyRounds}; a mode whose
 * latencies hold every round says nothing of it. (HtmlReportBrowserTests sees the line on a real probe's page.)
 */
class LeftOutRoundsTests {

    private static ModeFigures figures(long rounds, long latencyRounds) {
        return new ModeFigures("append-fdatasync", 2300, rounds, latencyRounds, 40, 80, 200, 900, 9000, 1, 4,
                List.<LatencyDistribution.Bucket>of(), List.of(), List.of(), "fdatasync", 75, 190, 4, 9);
    }

    @Test
    void aModeWithRoundsLeftOutSaysSoInTheTextReportsWords() {
        String html = PathSection.mode(figures(10_029, 9_949));
        String words = TextReport.latenciesLeftOut(9_949, 80);
        assertThat(words).isEqualTo("latencies of 9949 rounds: the 80 right after idle windows are left out"
                + " (a sync after a pause is slower than in a loop that never pauses)");
        assertThat(html).contains("<p class=\"left-out\">" + Html.text(words) + "</p>");
        assertThat(html.indexOf("class=\"left-out\"")).as("under the mode's figures, before its plots")
                .isGreaterThan(html.indexOf("class=\"figures\"")).isLessThan(html.indexOf("class=\"plots\""));
    }

    @Test
    void aModeWhoseLatenciesHoldEveryRoundSaysNothingOfIt() {
        assertThat(PathSection.mode(figures(64, 64))).doesNotContain("left-out", "left out");
    }
}

package io.flushcheck.sqlite;

import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The power-cut matrix as a section of the HTML report: one table row per journal mode and synchronous
 * level, with the commits acknowledged, those lost, the cuts that lost any, the most lost in one cut and the
 * cuts that left a corrupt database; a row that lost or corrupted anything is marked.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PowerCutMatrixHtml {

    private PowerCutMatrixHtml() {
    }

    public static HtmlReport addTo(HtmlReport report, List<PowerCutMatrix.Row> rows, long seed) {
        return report.addSection("powercut-sqlite", "SQLite under power cuts", html(rows, seed));
    }

    static String html(List<PowerCutMatrix.Row> rows, long seed) {
        StringBuilder sb = new StringBuilder();
        sb.append("<p class=\"note\">seed ").append(seed)
                .append(": each cut's commits and surviving sectors derive from it, so the same seed repeats the run</p>");
        sb.append("<table class=\"numbers powercut\"><thead><tr><th>journal</th><th>synchronous</th><th>cuts</th>"
                + "<th>acknowledged</th><th>lost</th><th>cuts that lost</th><th>most lost in one cut</th><th>corrupt</th>"
                + "</tr></thead><tbody>");
        for (PowerCutMatrix.Row r : rows) {
            String kind = r.corrupt() > 0 ? "corrupt" : r.lost() > 0 ? "lost" : "kept";
            sb.append("<tr class=\"cell ").append(kind).append("\"><th>").append(Html.text(r.journalMode().name()))
                    .append("</th><th>").append(Html.text(r.synchronous().name())).append("</th><td>").append(r.cuts())
                    .append("</td><td>").append(r.acknowledged()).append("</td><td>").append(r.lost()).append("</td><td>")
                    .append(r.cutsThatLost()).append("</td><td>").append(r.maxLostInOneCut()).append("</td><td>")
                    .append(r.corrupt()).append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }
}

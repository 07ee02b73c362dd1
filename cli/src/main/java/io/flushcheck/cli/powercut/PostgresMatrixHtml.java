package io.flushcheck.cli.powercut;

import io.flushcheck.postgres.PostgresPowerCutMatrix;
import io.flushcheck.postgres.Settings;
import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import java.util.List;

/**
 * The PostgreSQL power-cut matrix as a section of the HTML report: one table row per row of settings, with
 * the commits acknowledged, those lost, the cuts that lost any, the most lost in one cut and the cuts that
 * recovered; a row that lost anything, or did not recover, is marked.
 */
final class PostgresMatrixHtml {

    private PostgresMatrixHtml() {
    }

    static HtmlReport addTo(HtmlReport report, List<PostgresPowerCutMatrix.Row> rows, long seed) {
        return report.addSection("powercut-postgres", "PostgreSQL under power cuts", html(rows, seed));
    }

    static String html(List<PostgresPowerCutMatrix.Row> rows, long seed) {
        StringBuilder sb = new StringBuilder();
        sb.append("<p class=\"note\">seed ").append(seed)
                .append(": each cut's commits and surviving sectors derive from it, so the same seed repeats the run</p>");
        sb.append("<table class=\"numbers powercut\"><thead><tr><th>settings</th><th>cuts</th><th>acknowledged</th>"
                + "<th>lost</th><th>cuts that lost</th><th>most lost in one cut</th><th>recovered</th></tr></thead><tbody>");
        for (PostgresPowerCutMatrix.Row r : rows) {
            String kind = r.recovered() < r.cuts() ? "corrupt" : r.lost() > 0 ? "lost" : "kept";
            sb.append("<tr class=\"cell ").append(kind).append("\"><th>").append(Html.text(Settings.describe(r.settings())))
                    .append("</th><td>").append(r.cuts()).append("</td><td>").append(r.acknowledged()).append("</td><td>")
                    .append(r.lost()).append("</td><td>").append(r.cutsThatLost()).append("</td><td>")
                    .append(r.maxLostInOneCut()).append("</td><td>").append(r.recovered()).append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }
}

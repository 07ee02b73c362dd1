package io.flushcheck.sqlite;

import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.report.html.PathFigures;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The commit-rate matrix as a section of the HTML report: the directory's verdict as its headline, then
 * one table row per cell coloured by rows per second (on a log scale from the slowest cell, pale, to the
 * fastest, deep), with commits per second and the flushes and KiB per commit beside it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class MatrixHtml {

    private MatrixHtml() {
    }

    /** Adds the matrix's section, and the directory's check beside it when it measured modes. */
    public static HtmlReport addTo(HtmlReport report, CommitMatrix m) {
        return report.addSection("sqlite-matrix", "SQLite " + m.sqliteVersion() + " commit rates in " + m.directory(), html(m));
    }

    static String html(CommitMatrix m) {
        StringBuilder sb = new StringBuilder();
        sb.append(HtmlReport.headline(PathFigures.of(m.check())));
        sb.append("<p class=\"note\">devices counted: ").append(Html.text(m.devices().isEmpty() ? "none" : String.join(", ", m.devices())))
                .append("; ").append(m.cells().size()).append(" cells in ").append(Html.number(m.elapsedMillis() / 1000.0))
                .append(" s</p>");
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (CommitCell c : m.cells()) {
            double r = c.rowsPerSecond();
            if (!Double.isNaN(r) && r > 0) {
                lo = Math.min(lo, r);
                hi = Math.max(hi, r);
            }
        }
        sb.append("<table class=\"numbers matrix\"><thead><tr><th>journal</th><th>synchronous</th><th>fullfsync</th>"
                + "<th>rows/transaction</th><th>rows/s</th><th>commits/s</th><th>flushes/commit</th><th>KiB/commit</th>"
                + "</tr></thead><tbody>");
        for (CommitCell c : m.cells()) {
            sb.append("<tr class=\"cell\" style=\"background:").append(colour(c.rowsPerSecond(), lo, hi)).append("\"><th>")
                    .append(c.journalMode()).append("</th><th>").append(c.synchronous()).append("</th><td>")
                    .append(c.fullfsync() ? 1 : 0).append("</td><td>").append(c.batch()).append("</td><td class=\"rate\">")
                    .append(Html.number(c.rowsPerSecond())).append(c.truncated() ? " (time limit)" : "").append("</td><td>")
                    .append(Html.number(c.commitsPerSecond())).append("</td><td>")
                    .append(Double.isNaN(c.flushesPerCommit()) ? "not counted" : Html.number(c.flushesPerCommit()))
                    .append("</td><td>").append(Double.isNaN(c.kibPerCommit()) ? "not counted" : Html.number(c.kibPerCommit()))
                    .append("</td></tr>");
        }
        sb.append("</tbody></table><p class=\"note\">Row colour: rows per second on a log scale, pale for the slowest cell, deep"
                + " for the fastest.</p>");
        for (String s : m.skipped()) {
            sb.append("<p class=\"note\">skipped (total time limit): ").append(Html.text(s)).append("</p>");
        }
        for (String n : m.notes()) {
            sb.append("<p class=\"note\">note: ").append(Html.text(n)).append("</p>");
        }
        if (m.failure() != null) {
            sb.append("<p class=\"callout\">").append(Html.text(m.failure())).append("</p>");
        }
        return sb.toString();
    }

    /** A green from pale to deep by where {@code v} lies between lo and hi on a log scale. */
    static String colour(double v, double lo, double hi) {
        if (Double.isNaN(v) || v <= 0 || hi <= 0) {
            return "#ffffff";
        }
        double t = hi <= lo ? 1 : (Math.log(v) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
        int light = (int) Math.round(95 - 45 * t);
        return String.format(Locale.ROOT, "hsl(140,55%%,%d%%)", light);
    }
}

package io.flushcheck.cli.powercut;

import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import java.util.List;

/**
 * {@code flushcheck powercut damage}'s checks as a section of the HTML report: a row per check with the block, the
 * outcome and its explanation, and the outcomes' counts above.
 */
final class DamageHtml {

    private DamageHtml() {
    }

    static HtmlReport addTo(HtmlReport report, DamageOutput output, List<DamageCheck> checks) {
        return report.addSection("powercut-damage", "Damaged blocks after a power cut", html(output, checks));
    }

    static String html(DamageOutput output, List<DamageCheck> checks) {
        StringBuilder sb = new StringBuilder("<p class=\"note\">");
        boolean first = true;
        for (var e : DamageOutput.counts(checks).entrySet()) {
            sb.append(first ? "" : ", ").append(e.getValue()).append(' ').append(Html.text(e.getKey().words()));
            first = false;
        }
        sb.append(": silent corruption and silent loss fail the run</p>");
        sb.append("<table class=\"facts powercut-damage\"><thead><tr><th>check</th><th>block</th><th>outcome</th>"
                + "<th>explanation</th><th>again</th></tr></thead><tbody>");
        for (DamageCheck c : checks) {
            String repeat = output.repeatLine(c);
            sb.append("<tr class=\"").append(c.outcome().word()).append("\"><td>").append(c.number()).append("</td><td>")
                    .append(Html.text(c.site())).append("</td><td>").append(Html.text(c.outcome().words()))
                    .append("</td><td>").append(Html.text(c.explanation())).append("</td><td>")
                    .append(repeat == null ? "" : "<code>" + Html.text(repeat) + "</code>").append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }
}

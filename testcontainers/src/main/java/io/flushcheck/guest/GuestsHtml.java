package io.flushcheck.guest;

import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.html.Charts;
import io.flushcheck.report.html.Html;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.report.html.ModeFigures;
import io.flushcheck.report.html.PathFigures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The host and its guests as sections of the HTML report: first the comparison (per mode, each
 * environment's median and p99 as bars on a log axis with the guest/host ratios beside them, and the
 * guests called out whose syncs are far faster than the host's real flush), then each environment as a
 * path. The results are the {@link ResultData} a guest sends back.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class GuestsHtml {

    private GuestsHtml() {
    }

    /**
     * @param comparison the comparison, or null when none could be made
     * @param failures   environment to the reason it gave no result
     */
    public static HtmlReport addTo(HtmlReport report, List<ResultData> results, GuestComparison comparison,
                                   Map<String, String> failures) {
        if (comparison != null) {
            report.addSection("guests-compared", "Host against guests", comparisonHtml(comparison));
        }
        if (!failures.isEmpty()) {
            StringBuilder sb = new StringBuilder("<ul class=\"failures\">");
            for (Map.Entry<String, String> f : failures.entrySet()) {
                sb.append("<li><b>").append(Html.text(f.getKey())).append("</b>: ").append(Html.text(f.getValue())).append("</li>");
            }
            report.addSection("guests-failed", "Environments without a result", sb.append("</ul>").toString());
        }
        List<PathFigures> paths = new ArrayList<>();
        for (ResultData r : results) {
            paths.add(figures(r));
        }
        return report.addPaths(paths, "environment");
    }

    static String comparisonHtml(GuestComparison c) {
        Map<SyncMode, List<GuestComparison.Row>> byMode = new LinkedHashMap<>();
        for (GuestComparison.Row r : c.rows()) {
            byMode.computeIfAbsent(r.mode(), k -> new ArrayList<>()).add(r);
        }
        StringBuilder sb = new StringBuilder();
        if (c.callouts().isEmpty()) {
            sb.append("<p class=\"note\">No guest syncs far faster than the host's real flush.</p>");
        }
        for (GuestComparison.Callout k : c.callouts()) {
            sb.append("<p class=\"callout\">").append(Html.text(k.message())).append("</p>");
        }
        for (Map.Entry<SyncMode, List<GuestComparison.Row>> e : byMode.entrySet()) {
            List<String> groups = new ArrayList<>();
            double[][] values = new double[e.getValue().size()][];
            String[][] notes = new String[e.getValue().size()][];
            for (int i = 0; i < e.getValue().size(); i++) {
                GuestComparison.Row r = e.getValue().get(i);
                groups.add(r.environment());
                values[i] = new double[] {d(r.p50Micros()), d(r.p99Micros())};
                notes[i] = new String[] {ratio(r.p50Ratio()), ratio(r.p99Ratio())};
            }
            sb.append("<h3>").append(Html.text(e.getKey().id())).append("</h3><figure>")
                    .append(Charts.bars("compare-guests", e.getKey().id() + ": host and guests, ratios guest/host", groups,
                            List.of("p50", "p99"), values, notes))
                    .append("</figure>");
        }
        sb.append("<table class=\"numbers guests\"><thead><tr><th>mode</th><th>environment</th><th>verdict</th><th>p50</th>"
                + "<th>p99</th><th>flushes/sync</th><th>p50 guest/host</th><th>p99 guest/host</th></tr></thead><tbody>");
        for (GuestComparison.Row r : c.rows()) {
            sb.append("<tr><th>").append(Html.text(r.mode().id())).append("</th><th>").append(Html.text(r.environment()))
                    .append("</th><td class=\"verdict-").append(Html.attr(r.verdict().name())).append("\">").append(Html.text(r.verdict().name()))
                    .append("</td><td>").append(Html.micros(d(r.p50Micros()))).append("</td><td>").append(Html.micros(d(r.p99Micros())))
                    .append("</td><td>").append(Html.number(d(r.flushesPerSync()))).append("</td><td>")
                    .append(ratio(r.p50Ratio())).append("</td><td>").append(ratio(r.p99Ratio())).append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    /** One environment's result as the report's figures. */
    static PathFigures figures(ResultData r) {
        List<String[]> findings = new ArrayList<>();
        for (ResultData.Finding f : r.findings()) {
            findings.add(new String[] {f.code() == null ? "?" : f.code().name(), f.message()});
        }
        List<String[]> facts = new ArrayList<>();
        facts.add(new String[] {"path", r.path()});
        ResultData.Storage s = r.storage();
        if (s != null) {
            fact(facts, "fsType", s.fsType());
            fact(facts, "mountPoint", s.mountPoint());
            fact(facts, "source", s.source());
            fact(facts, "mountOptions", s.mountOptions());
            fact(facts, "device", s.device());
            fact(facts, "container", s.container());
            fact(facts, "hypervisor", s.hypervisor());
        }
        List<ModeFigures> modes = new ArrayList<>();
        for (ResultData.Cost c : r.costs()) {
            modes.add(ModeFigures.of(c));
        }
        return new PathFigures(r.environment() == null ? r.path() : r.environment(), r.verdict().name(), r.elapsedMillis(),
                findings, facts, modes);
    }

    private static void fact(List<String[]> facts, String key, String value) {
        if (value != null && !value.isEmpty()) {
            facts.add(new String[] {key, value});
        }
    }

    private static double d(Double v) {
        return v == null ? Double.NaN : v;
    }

    private static String ratio(Double v) {
        if (v == null) {
            return "-";
        }
        return String.format(Locale.ROOT, v >= 10 || v < 0.1 ? "×%.3g" : "×%.2f", v);
    }
}

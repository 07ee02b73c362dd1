package io.flushcheck.guest;

import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.TextReport;
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
 * path. The results are the {@link io.flushcheck.report.ResultJson} elements a guest sends back.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class GuestsHtml {

    private GuestsHtml() {
    }

    /**
     * @param comparison the comparison, or null when none could be made
     * @param failures   environment to the reason it gave no result
     */
    public static HtmlReport addTo(HtmlReport report, List<Map<String, Object>> results, GuestComparison comparison,
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
        for (Map<String, Object> r : results) {
            paths.add(figures(r));
        }
        return report.addPaths(paths, "environment");
    }

    static String comparisonHtml(GuestComparison c) {
        Map<String, List<GuestComparison.Row>> byMode = new LinkedHashMap<>();
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
        for (Map.Entry<String, List<GuestComparison.Row>> e : byMode.entrySet()) {
            List<String> groups = new ArrayList<>();
            double[][] values = new double[e.getValue().size()][];
            String[][] notes = new String[e.getValue().size()][];
            for (int i = 0; i < e.getValue().size(); i++) {
                GuestComparison.Row r = e.getValue().get(i);
                groups.add(r.environment());
                values[i] = new double[] {d(r.p50Micros()), d(r.p99Micros())};
                notes[i] = new String[] {ratio(r.p50Ratio()), ratio(r.p99Ratio())};
            }
            sb.append("<h3>").append(Html.text(e.getKey())).append("</h3><figure>")
                    .append(Charts.bars("compare-guests", e.getKey() + ": host and guests, ratios guest/host", groups,
                            List.of("p50", "p99"), values, notes))
                    .append("</figure>");
        }
        sb.append("<table class=\"numbers guests\"><thead><tr><th>mode</th><th>environment</th><th>verdict</th><th>p50</th>"
                + "<th>p99</th><th>flushes/sync</th><th>p50 guest/host</th><th>p99 guest/host</th></tr></thead><tbody>");
        for (GuestComparison.Row r : c.rows()) {
            sb.append("<tr><th>").append(Html.text(r.mode())).append("</th><th>").append(Html.text(r.environment()))
                    .append("</th><td class=\"verdict-").append(Html.attr(r.verdict())).append("\">").append(Html.text(r.verdict()))
                    .append("</td><td>").append(Html.micros(d(r.p50Micros()))).append("</td><td>").append(Html.micros(d(r.p99Micros())))
                    .append("</td><td>").append(Html.number(d(r.flushesPerSync()))).append("</td><td>")
                    .append(ratio(r.p50Ratio())).append("</td><td>").append(ratio(r.p99Ratio())).append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    /** One environment's result element as the report's figures. */
    @SuppressWarnings("unchecked")
    static PathFigures figures(Map<String, Object> r) {
        List<String[]> findings = new ArrayList<>();
        for (Object o : list(r.get("findings"))) {
            Map<String, Object> f = (Map<String, Object>) o;
            findings.add(new String[] {String.valueOf(f.get("code")), String.valueOf(f.get("message"))});
        }
        List<String[]> facts = new ArrayList<>();
        facts.add(new String[] {"path", String.valueOf(r.get("path"))});
        if (r.get("storage") instanceof Map<?, ?> s) {
            for (String key : List.of("fsType", "mountPoint", "source", "mountOptions", "device", "container", "hypervisor")) {
                Object v = s.get(key);
                if (v != null && !"".equals(v)) {
                    facts.add(new String[] {key, String.valueOf(v)});
                }
            }
        }
        List<ModeFigures> modes = new ArrayList<>();
        for (Object o : list(r.get("costs"))) {
            modes.add(mode((Map<String, Object>) o));
        }
        Object env = r.get("environment");
        return new PathFigures(env == null ? String.valueOf(r.get("path")) : String.valueOf(env), String.valueOf(r.get("verdict")),
                (long) d(r.get("elapsedMillis")), findings, facts, modes);
    }

    @SuppressWarnings("unchecked")
    static ModeFigures mode(Map<String, Object> c) {
        List<LatencyDistribution.Bucket> buckets = new ArrayList<>();
        for (Object o : list(c.get("histogram"))) {
            Map<String, Object> b = (Map<String, Object>) o;
            buckets.add(new LatencyDistribution.Bucket((long) d(b.get("lowMicros")), (long) d(b.get("highMicros")),
                    (long) d(b.get("count"))));
        }
        List<double[]> curve = new ArrayList<>();
        for (Object o : list(c.get("percentiles"))) {
            Map<String, Object> p = (Map<String, Object>) o;
            curve.add(new double[] {d(p.get("percentile")), d(p.get("micros"))});
        }
        List<double[]> slow = new ArrayList<>();
        for (Object o : list(c.get("slowestRounds"))) {
            Map<String, Object> s = (Map<String, Object>) o;
            slow.add(new double[] {d(s.get("round")), d(s.get("micros")), s.containsKey("flushes") ? d(s.get("flushes")) : -1,
                    s.containsKey("kibWritten") ? d(s.get("kibWritten")) : -1});
        }
        long rounds = (long) d(c.get("rounds"));
        double kib = d(c.get("kibWritten"));
        Map<String, Object> sync = c.get("sync") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        Map<String, Object> write = c.get("write") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        String mode = String.valueOf(c.get("mode"));
        return new ModeFigures(mode, (int) d(c.get("blockSize")), rounds, d(c.get("minMicros")), d(c.get("p50Micros")),
                d(c.get("p99Micros")), d(c.get("maxMicros")), d(c.get("roundsPerSecond")), d(c.get("flushesPerSync")),
                rounds > 0 ? kib / rounds : Double.NaN, buckets, curve, slow, syncCall(mode),
                d(sync.get("p50Micros")), d(sync.get("p99Micros")), d(write.get("p50Micros")), d(write.get("p99Micros")));
    }

    private static String syncCall(String mode) {
        try {
            return TextReport.syncCall(SyncMode.parse(mode));
        } catch (IllegalArgumentException e) {
            return "sync"; // a mode a newer guest knows and this host does not
        }
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static double d(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static String ratio(Double v) {
        if (v == null) {
            return "-";
        }
        return String.format(Locale.ROOT, v >= 10 || v < 0.1 ? "×%.3g" : "×%.2f", v);
    }
}

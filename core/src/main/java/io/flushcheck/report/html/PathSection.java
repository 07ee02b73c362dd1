package io.flushcheck.report.html;

import io.flushcheck.report.TextReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** One directory's section: the verdict and findings as its headline, the facts, then each mode. */
final class PathSection {

    private PathSection() {
    }

    static String html(PathFigures p) {
        StringBuilder sb = new StringBuilder();
        sb.append(headline(p));
        sb.append("<details class=\"facts\" open><summary>Storage facts</summary><table class=\"facts\">");
        for (String[] f : p.facts()) {
            sb.append("<tr><th>").append(Html.text(f[0])).append("</th><td>").append(Html.text(f[1])).append("</td></tr>");
        }
        sb.append("</table></details>");
        if (p.modes().isEmpty()) {
            sb.append("<p class=\"no-modes\">No sync loop ran here.</p>");
            return sb.toString();
        }
        if (p.modes().size() > 1) {
            sb.append("<h3>Modes side by side</h3>").append(modesTable(p.modes()));
            List<String> groups = new ArrayList<>();
            double[][] values = new double[p.modes().size()][];
            for (int i = 0; i < p.modes().size(); i++) {
                ModeFigures m = p.modes().get(i);
                groups.add(m.mode());
                values[i] = new double[] {m.p50Micros(), m.p99Micros()};
            }
            sb.append("<figure>").append(Charts.bars("compare-modes", p.title() + ": median and p99 per mode", groups,
                    List.of("p50", "p99"), values, null)).append("</figure>");
        }
        for (ModeFigures m : p.modes()) {
            sb.append(mode(m));
        }
        return sb.toString();
    }

    /** The verdict in a coloured badge, then its findings: what a reader must see first. */
    static String headline(PathFigures p) {
        StringBuilder sb = new StringBuilder();
        sb.append("<div class=\"headline verdict-").append(Html.attr(p.verdict())).append("\"><span class=\"verdict\">")
                .append(Html.text(p.verdict())).append("</span> <span class=\"elapsed\">checked in ")
                .append(p.elapsedMillis()).append(" ms</span><ul class=\"findings\">");
        for (String[] f : p.findings()) {
            sb.append("<li><code>").append(Html.text(f[0])).append("</code> ").append(Html.text(f[1])).append("</li>");
        }
        return sb.append("</ul></div>").toString();
    }

    static String modesTable(List<ModeFigures> modes) {
        StringBuilder sb = new StringBuilder("<table class=\"numbers modes\"><thead><tr><th>mode</th><th>block</th><th>rounds</th>"
                + "<th>p50</th><th>p99</th><th>max</th><th>sync alone p50</th><th>sync alone p99</th><th>rounds/s</th>"
                + "<th>flushes/sync</th><th>KiB/sync</th></tr></thead><tbody>");
        for (ModeFigures m : modes) {
            sb.append("<tr><th>").append(Html.text(m.mode())).append("</th><td>").append(m.blockSize()).append(" B</td><td>")
                    .append(m.rounds()).append("</td><td>").append(Html.micros(m.p50Micros())).append("</td><td>")
                    .append(Html.micros(m.p99Micros())).append("</td><td>").append(Html.micros(m.maxMicros())).append("</td><td>")
                    .append(Html.micros(m.syncP50Micros())).append("</td><td>").append(Html.micros(m.syncP99Micros()))
                    .append("</td><td>").append(Html.number(m.roundsPerSecond())).append("</td><td>")
                    .append(Html.number(m.flushesPerSync())).append("</td><td>").append(Html.number(m.kibPerSync()))
                    .append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }

    static String mode(ModeFigures m) {
        StringBuilder sb = new StringBuilder();
        sb.append("<article class=\"mode\" data-mode=\"").append(Html.attr(m.mode())).append("\"><h3>").append(Html.text(m.mode()))
                .append("</h3><p class=\"figures\">").append(m.rounds()).append(" rounds of ").append(m.blockSize())
                .append(" bytes, ").append(Html.number(m.roundsPerSecond())).append(" rounds/s; p50 ")
                .append(Html.micros(m.p50Micros())).append(", p99 ").append(Html.micros(m.p99Micros())).append(", max ")
                .append(Html.micros(m.maxMicros())).append("; <b>").append(Html.number(m.flushesPerSync()))
                .append("</b> flushes and <b>").append(Html.number(m.kibPerSync())).append("</b> KiB per sync");
        if (m.hasSplit()) {
            sb.append("; ").append(Html.text(m.syncCall())).append(" alone p50 ").append(Html.micros(m.syncP50Micros()))
                    .append(", p99 ").append(Html.micros(m.syncP99Micros())).append("; write alone p50 ")
                    .append(Html.micros(m.writeP50Micros())).append(", p99 ").append(Html.micros(m.writeP99Micros()));
        }
        sb.append("</p>");
        if (m.roundsLeftOut() > 0) {
            sb.append("<p class=\"left-out\">").append(Html.text(TextReport.latenciesLeftOut(m.latencyRounds(),
                    m.roundsLeftOut()))).append("</p>");
        }
        sb.append("<div class=\"plots\"><figure>").append(Charts.histogram(m.mode(), m.buckets()))
                .append("<figcaption>log2 histogram of the rounds</figcaption></figure><figure>");
        if (!m.percentiles().isEmpty()) {
            sb.append(Charts.percentiles(m.mode(), m.percentiles())).append("<figcaption>latency by percentile</figcaption>");
        }
        sb.append("</figure></div>");
        if (!m.slowest().isEmpty()) {
            sb.append("<table class=\"numbers slowest\"><thead><tr><th>slowest rounds</th><th>latency</th><th>flushes during it</th>"
                    + "<th>KiB during it</th></tr></thead><tbody>");
            for (double[] s : m.slowest()) {
                sb.append("<tr><td>round ").append((long) s[0]).append("</td><td>").append(Html.micros(s[1])).append("</td><td>")
                        .append(s[2] < 0 ? "not sampled" : String.valueOf((long) s[2])).append("</td><td>")
                        .append(s[3] < 0 ? "not sampled" : String.valueOf((long) s[3])).append("</td></tr>");
            }
            sb.append("</tbody></table>");
        }
        return sb.append("</article>").toString();
    }

    /** Paths side by side: the p99 of each mode on each path; null with fewer than two measured paths. */
    static String comparePaths(List<PathFigures> paths) {
        List<PathFigures> measured = new ArrayList<>();
        Set<String> modes = new LinkedHashSet<>();
        for (PathFigures p : paths) {
            if (!p.modes().isEmpty()) {
                measured.add(p);
                for (ModeFigures m : p.modes()) {
                    modes.add(m.mode());
                }
            }
        }
        StringBuilder sb = new StringBuilder("<table class=\"numbers paths\"><thead><tr><th>path</th><th>verdict</th>");
        for (String m : modes) {
            sb.append("<th>").append(Html.text(m)).append(" p99</th>");
        }
        sb.append("</tr></thead><tbody>");
        for (PathFigures p : paths) {
            sb.append("<tr><th>").append(Html.text(p.title())).append("</th><td class=\"verdict-").append(Html.attr(p.verdict()))
                    .append("\">").append(Html.text(p.verdict())).append("</td>");
            for (String mode : modes) {
                ModeFigures f = find(p, mode);
                sb.append("<td>").append(f == null ? "-" : Html.micros(f.p99Micros())).append("</td>");
            }
            sb.append("</tr>");
        }
        sb.append("</tbody></table>");
        if (paths.size() < 2) {
            return null;
        }
        if (measured.size() >= 2) {
            List<String> series = new ArrayList<>();
            for (PathFigures p : measured) {
                series.add(p.title());
            }
            List<String> groups = new ArrayList<>(modes);
            double[][] values = new double[groups.size()][measured.size()];
            for (int g = 0; g < groups.size(); g++) {
                for (int s = 0; s < measured.size(); s++) {
                    ModeFigures f = find(measured.get(s), groups.get(g));
                    values[g][s] = f == null ? Double.NaN : f.p99Micros();
                }
            }
            sb.append("<figure>").append(Charts.bars("compare-paths", "p99 per mode on each path", groups, series, values, null))
                    .append("</figure>");
        }
        return sb.toString();
    }

    static ModeFigures find(PathFigures p, String mode) {
        for (ModeFigures m : p.modes()) {
            if (m.mode().equals(mode)) {
                return m;
            }
        }
        return null;
    }
}

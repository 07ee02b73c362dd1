package io.flushcheck.report.html;

import io.flushcheck.probe.LatencyDistribution;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The report's plots as inline SVG. Each plot is an {@code <svg class="plot KIND">} whose bars are
 * {@code rect.bar} and whose axis titles are {@code text.axis-title}, so a browser test can count what
 * was drawn.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Charts {

    static final int WIDTH = 440;
    static final int HEIGHT = 230;
    private static final int LEFT = 58;
    private static final int RIGHT = 24;
    private static final int TOP = 24;
    private static final int BOTTOM = 48;

    private Charts() {
    }

    /** The log2 histogram: one bar per power-of-two bucket, its count above it. */
    public static String histogram(String mode, List<LatencyDistribution.Bucket> buckets) {
        Svg svg = new Svg(WIDTH, HEIGHT, "plot histogram", "mode", mode, "bars", String.valueOf(buckets.size()));
        svg.title(mode + ": rounds per latency bucket (powers of two)");
        long max = 1;
        for (var b : buckets) {
            max = Math.max(max, b.count());
        }
        double plotW = WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        double slot = plotW / Math.max(1, buckets.size());
        double top = yAxis(svg, max, "rounds");
        for (int i = 0; i < buckets.size(); i++) {
            var b = buckets.get(i);
            double h = plotH * b.count() / top;
            double x = LEFT + i * slot;
            svg.rect(x + slot * 0.12, TOP + plotH - h, slot * 0.76, h, "bar",
                    b.count() + " rounds from " + b.lowMicros() + " to " + b.highMicros() + " µs");
            svg.text(x + slot / 2, TOP + plotH - h - 4, "middle", "value", String.valueOf(b.count()));
            svg.text(x + slot / 2, TOP + plotH + 14, "middle", "tick", shortMicros(b.lowMicros()));
        }
        svg.line(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH, "axis");
        svg.text(LEFT + plotW / 2, HEIGHT - 10, "middle", "axis-title", "round latency, bucket from (µs, log2)");
        return svg.end();
    }

    /**
     * The percentile curve as HdrHistogram's plotter draws it: latency up, percentile across on a log axis
     * of 1 / (1 - p), with ticks at 0%, 90%, 99%, 99.9%, ...
     */
    public static String percentiles(String mode, List<double[]> points) {
        Svg svg = new Svg(WIDTH, HEIGHT, "plot percentiles", "mode", mode, "points", String.valueOf(points.size()));
        svg.title(mode + ": latency by percentile");
        double maxY = 1;
        double maxX = 1;
        for (double[] p : points) {
            maxY = Math.max(maxY, p[1]);
            if (p[0] < 100) {
                maxX = Math.max(maxX, x(p[0]));
            }
        }
        maxX = Math.ceil(maxX - 1e-9);
        // Milliseconds once the numbers grow long: the ticks must fit left of the axis.
        double unit = maxY >= 10_000 ? 1000 : 1;
        double plotW = WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        double top = yAxis(svg, maxY / unit, unit == 1 ? "latency (µs)" : "latency (ms)");
        for (int d = 0; d <= (int) maxX; d++) {
            double px = LEFT + plotW * d / maxX;
            svg.line(px, TOP, px, TOP + plotH, "grid");
            svg.text(px, TOP + plotH + 14, "middle", "tick", d == 0 ? "0%" : percentLabel(d));
        }
        double[] xy = new double[points.size() * 2];
        for (int i = 0; i < points.size(); i++) {
            double[] p = points.get(i);
            // The maximum sits at the axis's end: 100% has no finite place on a log axis.
            double xv = p[0] >= 100 ? maxX : Math.min(maxX, x(p[0]));
            xy[2 * i] = LEFT + plotW * xv / maxX;
            xy[2 * i + 1] = TOP + plotH - plotH * p[1] / unit / top;
        }
        svg.polyline(xy, "curve");
        for (int i = 0; i < points.size(); i++) {
            double[] p = points.get(i);
            if (isMarked(p[0])) {
                svg.circle(xy[2 * i], xy[2 * i + 1], 3, "mark", String.format(Locale.ROOT, "p%s: %s", trim(p[0]), Html.micros(p[1])));
            }
        }
        svg.line(LEFT, TOP + plotH, LEFT + plotW, TOP + plotH, "axis");
        svg.text(LEFT + plotW / 2, HEIGHT - 10, "middle", "axis-title", "percentile (log scale of 1/(1-p))");
        return svg.end();
    }

    /**
     * Horizontal bars on a log axis, one group per label, one bar per series in it: modes against each
     * other, paths, host and guests. {@code notes[g][s]} is written after the bar (a ratio), or null.
     *
     * @param kind   the plot's class: {@code compare-modes}, {@code compare-paths}, {@code compare-guests}
     * @param values {@code values[group][series]} in µs; NaN leaves the bar out
     */
    public static String bars(String kind, String title, List<String> groups, List<String> series, double[][] values,
                              String[][] notes) {
        int barH = 13;
        int groupGap = 10;
        int longest = 0;
        for (String g : groups) {
            longest = Math.max(longest, g.length());
        }
        // Room for the longest label at about 7 px a character of the 11 px bold face.
        int labelW = Math.max(120, Math.min(360, 7 * longest + 16));
        int noteW = 130;
        int height = TOP + BOTTOM + 6 + groups.size() * (series.size() * (barH + 2) + groupGap);
        int width = labelW + 440 + noteW;
        Svg svg = new Svg(width, height, "plot " + kind, "groups", String.valueOf(groups.size()),
                "series", String.valueOf(series.size()));
        svg.title(title);
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (double[] g : values) {
            for (double v : g) {
                if (!Double.isNaN(v) && v > 0) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        if (max == 0) {
            min = 1;
            max = 10;
        }
        double lo = Math.pow(10, Math.floor(Math.log10(min)));
        double hi = Math.pow(10, Math.ceil(Math.log10(max * 1.0001)));
        double plotW = width - labelW - noteW;
        double plotBottom = height - BOTTOM - 6;
        for (double t = lo; t <= hi * 1.0001; t *= 10) {
            double px = labelW + plotW * (Math.log10(t) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
            svg.line(px, TOP - 6, px, plotBottom, "grid");
            svg.text(px, plotBottom + 14, "middle", "tick", Html.micros(t));
        }
        double y = TOP;
        for (int g = 0; g < groups.size(); g++) {
            svg.text(labelW - 8, y + (series.size() * (barH + 2)) / 2.0 + 4, "end", "group", groups.get(g));
            for (int s = 0; s < series.size(); s++) {
                double v = values[g][s];
                if (!Double.isNaN(v) && v > 0) {
                    double w = plotW * (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
                    svg.rect(labelW, y, Math.max(1, w), barH, "bar series-" + s, groups.get(g) + ", " + series.get(s) + ": "
                            + Html.micros(v));
                    String note = notes == null || notes[g][s] == null ? Html.micros(v) : Html.micros(v) + "  " + notes[g][s];
                    svg.text(labelW + w + 4, y + barH - 3, "start", "value", note);
                }
                y += barH + 2;
            }
            y += groupGap;
        }
        // The legend: one swatch per series.
        double lx = labelW;
        for (int s = 0; s < series.size(); s++) {
            svg.rect(lx, height - 16, 10, 10, "swatch series-" + s, null);
            svg.text(lx + 14, height - 7, "start", "legend", series.get(s));
            lx += 18 + 7 * series.get(s).length();
        }
        svg.text(labelW + plotW / 2, plotBottom + 28, "middle", "axis-title", "latency (log scale)");
        return svg.end();
    }

    /** The y axis from 0: a rounded top, four ticks with grid lines, its title. Returns the axis's top value. */
    private static double yAxis(Svg svg, double max, String title) {
        double top = niceCeiling(max);
        double plotW = WIDTH - LEFT - RIGHT;
        double plotH = HEIGHT - TOP - BOTTOM;
        for (int i = 0; i <= 4; i++) {
            double v = top * i / 4;
            double py = TOP + plotH - plotH * i / 4;
            svg.line(LEFT, py, LEFT + plotW, py, "grid");
            svg.text(LEFT - 6, py + 4, "end", "tick", tickValue(v));
        }
        svg.line(LEFT, TOP, LEFT, TOP + plotH, "axis");
        svg.verticalText(14, TOP + plotH / 2, "axis-title", title);
        return top;
    }

    static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 4, 5, 8, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static double x(double percentile) {
        return percentile >= 100 ? Double.POSITIVE_INFINITY : Math.log10(100 / (100 - percentile));
    }

    private static String percentLabel(int decades) {
        StringBuilder sb = new StringBuilder("99");
        if (decades > 2) {
            sb.append('.').append("9".repeat(decades - 2));
        }
        return decades == 1 ? "90%" : sb + "%";
    }

    /** The points a reader looks for: the median, the decades (90%, 99%, 99.9%, ...) and the maximum. */
    private static boolean isMarked(double p) {
        if (p >= 100) {
            return true;
        }
        double x = x(p);
        return Math.abs(p - 50) < 1e-6 || x > 0.5 && Math.abs(x - Math.rint(x)) < 1e-6;
    }

    private static String trim(double p) {
        return p >= 100 ? "100 (max)" : String.format(Locale.ROOT, "%.4g", p);
    }

    private static String tickValue(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String shortMicros(long us) {
        if (us >= 1_000_000) {
            return us / 1_000_000 + "s";
        }
        if (us >= 1000) {
            return us / 1000 + "ms";
        }
        return String.valueOf(us);
    }
}

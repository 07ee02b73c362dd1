package io.flushcheck.report.html;

import java.util.Locale;

/**
 * A small SVG writer: the handful of elements the report's plots need, each attribute and text escaped.
 * Coordinates are user units with the origin at the top left, as SVG has them.
 */
final class Svg {

    private final StringBuilder sb = new StringBuilder();

    /** An {@code <svg>} of {@code width} × {@code height} with the given classes and data attributes ({@code name, value, ...}). */
    Svg(int width, int height, String classes, String... data) {
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"").append(Html.attr(classes)).append("\" width=\"")
                .append(width).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ')
                .append(height).append("\" role=\"img\"");
        for (int i = 0; i + 1 < data.length; i += 2) {
            sb.append(" data-").append(data[i]).append("=\"").append(Html.attr(data[i + 1])).append('"');
        }
        sb.append('>');
    }

    /** A title for the whole plot: what a screen reader says and a hover shows. */
    Svg title(String text) {
        sb.append("<title>").append(Html.text(text)).append("</title>");
        return this;
    }

    Svg rect(double x, double y, double w, double h, String cls, String tooltip) {
        sb.append("<rect class=\"").append(Html.attr(cls)).append("\" x=\"").append(n(x)).append("\" y=\"").append(n(y))
                .append("\" width=\"").append(n(Math.max(0, w))).append("\" height=\"").append(n(Math.max(0, h))).append('"');
        if (tooltip == null) {
            sb.append("/>");
        } else {
            sb.append("><title>").append(Html.text(tooltip)).append("</title></rect>");
        }
        return this;
    }

    Svg line(double x1, double y1, double x2, double y2, String cls) {
        sb.append("<line class=\"").append(Html.attr(cls)).append("\" x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1))
                .append("\" x2=\"").append(n(x2)).append("\" y2=\"").append(n(y2)).append("\"/>");
        return this;
    }

    /** A polyline through {@code xy} = x0, y0, x1, y1, ... */
    Svg polyline(double[] xy, String cls) {
        sb.append("<polyline class=\"").append(Html.attr(cls)).append("\" points=\"");
        for (int i = 0; i + 1 < xy.length; i += 2) {
            sb.append(i > 0 ? " " : "").append(n(xy[i])).append(',').append(n(xy[i + 1]));
        }
        sb.append("\"/>");
        return this;
    }

    Svg circle(double cx, double cy, double r, String cls, String tooltip) {
        sb.append("<circle class=\"").append(Html.attr(cls)).append("\" cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy))
                .append("\" r=\"").append(n(r)).append("\"><title>").append(Html.text(tooltip)).append("</title></circle>");
        return this;
    }

    /** Text anchored {@code start}, {@code middle} or {@code end} at (x, y). */
    Svg text(double x, double y, String anchor, String cls, String text) {
        sb.append("<text class=\"").append(Html.attr(cls)).append("\" x=\"").append(n(x)).append("\" y=\"").append(n(y))
                .append("\" text-anchor=\"").append(anchor).append("\">").append(Html.text(text)).append("</text>");
        return this;
    }

    /** Text turned a quarter to the left about (x, y): a vertical axis's label. */
    Svg verticalText(double x, double y, String cls, String text) {
        sb.append("<text class=\"").append(Html.attr(cls)).append("\" x=\"").append(n(x)).append("\" y=\"").append(n(y))
                .append("\" text-anchor=\"middle\" transform=\"rotate(-90 ").append(n(x)).append(' ').append(n(y)).append(")\">")
                .append(Html.text(text)).append("</text>");
        return this;
    }

    String end() {
        return sb.append("</svg>").toString();
    }

    private static String n(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}

package io.flushcheck.report.html;

import java.util.Locale;
import org.apiguardian.api.API;

/** Escaping for HTML text and attributes, and the number formats the report shows. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Html {

    private Html() {
    }

    /** {@code s} as HTML text: {@code & < >} escaped, control characters shown as {@code \xHH}; "" for null. */
    public static String text(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t' || c == 0x7f) {
                        sb.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** {@code s} inside a double-quoted attribute. */
    public static String attr(String s) {
        return text(s).replace("\"", "&quot;");
    }

    /** A latency for a person: {@code 49.6 µs}, {@code 528 µs}, {@code 1.87 ms}, {@code 2.3 s}. */
    public static String micros(double us) {
        if (Double.isNaN(us)) {
            return "-";
        }
        if (us < 1000) {
            return (us < 100 ? String.format(Locale.ROOT, "%.3g", us) : String.format(Locale.ROOT, "%.0f", us)) + " µs";
        }
        if (us < 1_000_000) {
            return String.format(Locale.ROOT, "%.3g", us / 1000) + " ms";
        }
        return String.format(Locale.ROOT, "%.3g", us / 1e6) + " s";
    }

    /** {@code 1,234}, {@code 0.98}, {@code -} for NaN. */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}

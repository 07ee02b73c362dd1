package io.flushcheck.text;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * How flushcheck writes numbers for people: every text report, table and finding of every command and
 * module goes through here, so that one figure reads the same everywhere. Locale-independent
 * ({@link Locale#ROOT}); a figure that was not measured (NaN) is {@code -}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Numbers {

    /** What a figure that was not measured reads as. */
    public static final String NONE = "-";

    private Numbers() {
    }

    /** A latency in microseconds, to three significant digits at most: {@code 2.47}, {@code 44.5}, {@code 312}. */
    public static String micros(double micros) {
        if (Double.isNaN(micros)) {
            return NONE;
        }
        if (micros >= 100) {
            return String.format(Locale.ROOT, "%.0f", micros);
        }
        if (micros >= 10) {
            return String.format(Locale.ROOT, "%.1f", micros);
        }
        return String.format(Locale.ROOT, "%.2f", micros);
    }

    /** A small quantity per event, to two decimals: flushes per sync, KiB per commit ({@code 1.00}). */
    public static String perEvent(double v) {
        return Double.isNaN(v) ? NONE : String.format(Locale.ROOT, "%.2f", v);
    }

    /** A rate, whole and grouped by thousands: rounds or rows per second ({@code 12,345}). */
    public static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? NONE : String.format(Locale.ROOT, "%,.0f", perSecond);
    }

    /** A count that may be unknown (negative): {@code 12} or {@code -}. */
    public static String count(long n) {
        return n < 0 ? NONE : Long.toString(n);
    }

    /** A ratio such as guest/host: {@code 0.50x}, {@code 2.00x}, {@code 0.00200x}, {@code 12.0x}. */
    public static String ratio(double v) {
        if (Double.isNaN(v)) {
            return NONE;
        }
        return v >= 10 || v < 0.1 ? String.format(Locale.ROOT, "%.3gx", v) : String.format(Locale.ROOT, "%.2fx", v);
    }

    /** A size in bytes the way a block size is given: {@code 4 KiB}, {@code 1 MiB}, {@code 512 bytes}. */
    public static String size(long bytes) {
        if (bytes != 0 && bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes != 0 && bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        return bytes + " bytes";
    }
}

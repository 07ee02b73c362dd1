package io.flushcheck.cli.common;

import io.flushcheck.BadPathException;
import io.flushcheck.Flushcheck;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * The command's option values: the parsing {@link Converters} and the commands share, with messages that
 * are the whole line the user sees (option, value, what is allowed). Nothing of picocli: a plain probe
 * line calls {@link #path} without loading picocli's classes (the cold path, docs/architecture.md).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Values {

    private Values() {
    }

    /** A whole number with an optional binary suffix, in {@code [min, max]}; the message names the option. */
    public static int intValue(String option, String value, int min, int max) throws UsageException {
        try {
            long v = parseSize(value);
            if (v < min || v > max) {
                throw new UsageException(option + " " + value + " is out of range: use " + min + " to " + max);
            }
            return (int) v;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new UsageException(option + " takes a whole number from " + min + " to " + max + ", not '" + value + "'");
        }
    }

    static double doubleValue(String option, String value) throws UsageException {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " takes a number, not '" + value + "'");
        }
    }

    /** A number with an optional binary suffix: 4096, 4k, 64K, 1m, 1MiB. */
    static long parseSize(String s) {
        String v = s.trim().toLowerCase(java.util.Locale.ROOT);
        long mult = 1;
        if (v.endsWith("ib")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("b") && v.length() > 1 && !Character.isDigit(v.charAt(v.length() - 2))) {
            v = v.substring(0, v.length() - 1);
        }
        if (v.endsWith("k")) {
            mult = 1024;
        } else if (v.endsWith("m")) {
            mult = 1024 * 1024;
        }
        if (mult > 1) {
            v = v.substring(0, v.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(v), mult);
    }

    /** A path argument: {@link Flushcheck#pathOf}, a name the locale cannot represent being bad usage. */
    public static Path path(String arg) throws UsageException {
        try {
            return Flushcheck.pathOf(arg);
        } catch (BadPathException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * {@code --host-dir}: the directory {@code arg} names, the working directory when it is null, checked as the probe
     * checks its directories (the same causes in the same words: empty, missing, a loop, ...).
     */
    public static Path hostDir(String arg) throws UsageException {
        Path dir = arg == null ? Path.of("").toAbsolutePath() : path(arg);
        try {
            return Flushcheck.validateDirectory(dir);
        } catch (BadPathException e) {
            throw new UsageException("--host-dir: " + e.getMessage());
        }
    }
}

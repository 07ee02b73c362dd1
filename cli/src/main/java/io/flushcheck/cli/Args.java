package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.Flushcheck;
import java.nio.file.Path;
import java.util.List;

/** A cursor over command-line arguments with typed, validated option values. */
final class Args {

    private final List<String> args;
    private int next;

    // An index into the list rather than an ArrayDeque copy: that constructor's method reference
    // bootstraps the JVM's lambda machinery, about 9 ms of a one-shot command's start.
    Args(List<String> args) {
        this.args = List.copyOf(args);
    }

    boolean hasNext() {
        return next < args.size();
    }

    String next() {
        return args.get(next++);
    }

    /** The value of an option given as {@code --opt VALUE} or {@code --opt=VALUE}. */
    String value(String option, String arg) throws UsageException {
        int eq = arg.indexOf('=');
        if (eq > 0) {
            return arg.substring(eq + 1);
        }
        if (!hasNext()) {
            throw new UsageException(option + " needs a value");
        }
        return next();
    }

    static int intValue(String option, String value, int min, int max) throws UsageException {
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

    /** Rejects {@code --flag=value} for an option that takes none. */
    static void noValue(String option, String arg) throws UsageException {
        if (arg.indexOf('=') > 0) {
            throw new UsageException(option + " takes no value: '" + arg + "'");
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
        String v = s.trim().toLowerCase();
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
    static Path path(String arg) throws UsageException {
        try {
            return Flushcheck.pathOf(arg);
        } catch (BadPathException e) {
            throw new UsageException(e.getMessage());
        }
    }

    static String baseName(String arg) {
        int eq = arg.indexOf('=');
        return eq > 0 ? arg.substring(0, eq) : arg;
    }
}

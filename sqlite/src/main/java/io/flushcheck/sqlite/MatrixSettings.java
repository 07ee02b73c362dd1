package io.flushcheck.sqlite;

import io.flushcheck.WholeNumbers;
import io.flushcheck.jupiter.FlushcheckConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Reads and validates the {@code flushcheck.sqlite.*} keys of {@link MeasureSqliteCommits}: the one place
 * this module reads configuration. A bad value names the key, the value and what is allowed; booleans
 * take the shared grammar ({@link io.flushcheck.Booleans}).
 */
final class MatrixSettings {

    private final ExtensionContext context;

    MatrixSettings(ExtensionContext context) {
        this.context = context;
    }

    /** {where it came from, the directory}: the SQLite key, else the general target key, else java.io.tmpdir. */
    String[] directory() {
        for (String key : List.of(MeasureSqliteCommits.DIRECTORY_KEY, FlushcheckConfig.TARGET_KEY)) {
            Optional<String> v = raw(key);
            if (v.isPresent()) {
                return new String[] {key, v.get()};
            }
        }
        return new String[] {"java.io.tmpdir", System.getProperty("java.io.tmpdir")};
    }

    /** A key's value, trimmed; empty when unset or blank (blank means "the default", as for the other keys). */
    Optional<String> raw(String key) {
        return context.getConfigurationParameter(key).map(String::trim).filter(v -> !v.isEmpty());
    }

    <T> T keyed(String key, Function<String, T> parser, T fallback) {
        Optional<String> v = raw(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return parser.apply(v.get());
        } catch (IllegalArgumentException e) {
            throw new MeasureSqliteCommitsExtension.ConfigError(key + " = '" + v.get() + "': " + e.getMessage());
        }
    }

    int intValue(String key, int fallback, int min, int max) {
        Optional<String> v = raw(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return WholeNumbers.parse(key + " = '" + v.get() + "'", v.get(), min, max);
        } catch (IllegalArgumentException e) {
            throw new MeasureSqliteCommitsExtension.ConfigError(e.getMessage());
        }
    }

    double seconds(String key, double fallback) {
        Optional<String> v = raw(key);
        if (v.isEmpty()) {
            return fallback;
        }
        double d;
        try {
            d = Double.parseDouble(v.get());
        } catch (NumberFormatException e) {
            throw new MeasureSqliteCommitsExtension.ConfigError(key + " = '" + v.get() + "' is not a number: use seconds above 0, e.g. 2 or 0.5");
        }
        if (!(d > 0)) {
            throw new MeasureSqliteCommitsExtension.ConfigError(key + " = '" + v.get() + "' is out of range: use seconds above 0, e.g. 2 or 0.5");
        }
        return d;
    }

    List<Integer> batches(List<Integer> fallback) {
        String key = MeasureSqliteCommits.BATCHES_KEY;
        Optional<String> v = raw(key);
        if (v.isEmpty()) {
            return fallback;
        }
        String allowed = "use 1 to " + MatrixOptions.MAX_BATCH + " rows per transaction, comma-separated";
        List<Integer> out = new ArrayList<>();
        for (String p : v.get().split(",")) {
            int b;
            try {
                b = Integer.parseInt(p.trim());
            } catch (NumberFormatException e) {
                throw new MeasureSqliteCommitsExtension.ConfigError(key + " = '" + v.get() + "': '" + p.trim() + "' is not a whole number: " + allowed);
            }
            if (b < 1 || b > MatrixOptions.MAX_BATCH) {
                throw new MeasureSqliteCommitsExtension.ConfigError(key + " = '" + v.get() + "': batch " + b + " is out of range: " + allowed);
            }
            out.add(b);
        }
        return out;
    }
}

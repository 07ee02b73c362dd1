package io.flushcheck.jupiter;

import io.flushcheck.BadPathException;
import io.flushcheck.Flushcheck;
import io.flushcheck.WholeNumbers;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Thresholds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Reads and validates the {@code flushcheck.*} keys; a bad value names the key, the value and what is allowed. */
final class ConfigReader {

    private final ExtensionContext context;

    ConfigReader(ExtensionContext context) {
        this.context = context;
    }

    Optional<String> raw(String key) {
        // Without lambdas: each one's first use makes a class, and every fork reads these keys.
        Optional<String> value = context.getConfigurationParameter(key);
        String trimmed = value.isPresent() ? value.get().trim() : "";
        return trimmed.isEmpty() ? Optional.empty() : Optional.of(trimmed);
    }

    /** The directory an annotation's {@code path} names, else the target key, else java.io.tmpdir. */
    Path target(String annotationPath) {
        String where = !annotationPath.isBlank() ? "path" : raw(FlushcheckConfig.TARGET_KEY).isPresent()
                ? FlushcheckConfig.TARGET_KEY : "java.io.tmpdir";
        String name = !annotationPath.isBlank() ? annotationPath
                : raw(FlushcheckConfig.TARGET_KEY).orElseGet(() -> System.getProperty("java.io.tmpdir"));
        try {
            return Flushcheck.pathOf(name);
        } catch (BadPathException e) {
            throw new ExtensionConfigurationException(where + ": " + Escape.of(e.getMessage()));
        }
    }

    FlushPolicy policy(FlushPolicy attribute, String key, FlushPolicy fallback) {
        if (attribute != FlushPolicy.CONFIGURED) {
            return attribute;
        }
        return raw(key).map(v -> FlushPolicy.parse(key, v)).orElse(fallback);
    }

    int intValue(String key, int fallback, int min, int max) {
        Optional<String> v = raw(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return WholeNumbers.parse(shown(key), v.get(), min, max);
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(e.getMessage());
        }
    }

    Thresholds thresholds() {
        String minKey = FlushcheckConfig.MIN_FLUSHES_PER_SYNC_KEY;
        String fastKey = FlushcheckConfig.SUSPICIOUS_SYNC_MICROS_KEY;
        try {
            return new Thresholds(
                    Thresholds.checkMinFlushesPerSync(shown(minKey),
                            doubleValue(minKey, Thresholds.DEFAULT.minFlushesPerSync())),
                    Thresholds.checkSuspiciousSyncMicros(shown(fastKey),
                            doubleValue(fastKey, Thresholds.DEFAULT.suspiciousSyncMicros())));
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(e.getMessage());
        }
    }

    /** {@code key = 'value'}, as messages name a key and what it was set to. */
    private String shown(String key) {
        return key + " = '" + raw(key).orElse("") + "'";
    }

    private double doubleValue(String key, double fallback) {
        Optional<String> v = raw(key);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return Double.parseDouble(v.get());
        } catch (NumberFormatException e) {
            throw new ExtensionConfigurationException(key + " = '" + v.get() + "' is not a number");
        }
    }

    ProbePlan verificationPlan() {
        return ProbePlan.verification().withRounds(intValue(FlushcheckConfig.VERIFY_ROUNDS_KEY, 64, 8, 100_000));
    }

    /** The plan of a {@link MeasureSyncCost}: its attributes, else the keys, else the defaults. */
    ProbePlan measurePlan(MeasureSyncCost a) {
        List<SyncMode> modes;
        String where = "@MeasureSyncCost(modes)";
        try {
            if (a.modes().length > 0) {
                modes = new ArrayList<>(new LinkedHashSet<>(Arrays.asList(a.modes())));
            } else {
                where = FlushcheckConfig.MEASURE_MODES_KEY;
                modes = raw(FlushcheckConfig.MEASURE_MODES_KEY).map(SyncMode::parseList).orElseGet(SyncMode::available);
            }
            where = "@MeasureSyncCost";
            int rounds = a.rounds() > 0 ? a.rounds() : intValue(FlushcheckConfig.MEASURE_ROUNDS_KEY, 200, 1, ProbePlan.MAX_ROUNDS);
            int block = a.blockSize() > 0 ? a.blockSize()
                    : intValue(FlushcheckConfig.MEASURE_BLOCK_SIZE_KEY, 4096, ProbePlan.MIN_BLOCK, ProbePlan.MAX_BLOCK);
            if (a.rounds() == 0 || a.rounds() < -1 || a.blockSize() == 0 || a.blockSize() < -1) {
                throw new IllegalArgumentException("rounds = " + a.rounds() + ", blockSize = " + a.blockSize()
                        + ": give positive numbers, or leave them out to use the keys");
            }
            return new ProbePlan(modes, block, rounds, false, 5);
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(where + ": " + e.getMessage());
        }
    }
}

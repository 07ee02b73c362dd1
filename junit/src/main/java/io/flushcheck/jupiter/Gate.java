package io.flushcheck.jupiter;

import java.util.Locale;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * The latency gate of a {@link MeasureSyncCost}: a percentile and its limit. A percentile of few rounds
 * rests on a handful of samples (the p99 of 200 rounds is the third-slowest round), so one stall of a
 * shared machine decides it; a gate needs at least {@value #MIN_ROUNDS_ABOVE} rounds above its percentile.
 *
 * @param percentile the percentile gated, above 0 and below 100
 * @param maxMicros  its limit, or -1 for no gate
 * @param shown      the attributes as the user wrote them, for messages
 */
record Gate(double percentile, double maxMicros, String shown) {

    /** Rounds that must lie above the gated percentile, so that no single stall decides it. */
    static final int MIN_ROUNDS_ABOVE = 10;

    static final Gate NONE = new Gate(99, -1, "");

    static Gate of(MeasureSyncCost a) {
        double p99 = a.maxP99Micros();
        double max = a.maxMicros();
        double p = a.gatePercentile();
        if (p99 != -1 && max != -1) {
            throw new ExtensionConfigurationException(MeasureSyncCostExtension.NAME + "(maxP99Micros = " + plain(p99)
                    + ", maxMicros = " + plain(max) + "): give one of them");
        }
        if (p99 != -1) {
            String shown = MeasureSyncCostExtension.NAME + "(maxP99Micros = " + plain(p99) + ")";
            if (p != 99) {
                throw new ExtensionConfigurationException(shown + " gates the p99: for another percentile use maxMicros"
                        + " with gatePercentile = " + plain(p));
            }
            return checked(new Gate(99, p99, shown));
        }
        String shown = MeasureSyncCostExtension.NAME + "(maxMicros = " + plain(max) + ", gatePercentile = " + plain(p) + ")";
        if (!(p > 0 && p < 100)) {
            throw new ExtensionConfigurationException(shown + ": gatePercentile must be above 0 and below 100");
        }
        return max == -1 ? NONE : checked(new Gate(p, max, shown));
    }

    private static Gate checked(Gate g) {
        if (!(g.maxMicros > 0 && Double.isFinite(g.maxMicros))) {
            throw new ExtensionConfigurationException(g.shown + ": use -1 (no gate) or a number of microseconds above 0");
        }
        return g;
    }

    boolean active() {
        return maxMicros > 0;
    }

    /** How many of {@code rounds} lie above the percentile. */
    long roundsAbove(long rounds) {
        return (long) Math.floor(rounds * (100 - percentile) / 100 + 1e-9);
    }

    /** The fewest rounds that put {@value #MIN_ROUNDS_ABOVE} above the percentile. */
    long roundsNeeded() {
        return (long) Math.ceil(MIN_ROUNDS_ABOVE * 100 / (100 - percentile) - 1e-9);
    }

    /** Refuses a plan whose rounds are too few for the percentile, before anything is measured. */
    void requireRounds(int rounds) {
        if (active() && roundsAbove(rounds) < MIN_ROUNDS_ABOVE) {
            throw new ExtensionConfigurationException(String.format(Locale.ROOT,
                    "%s: the %s of %d rounds rests on its %d slowest, so one stall of a busy machine decides it; measure"
                            + " at least %d rounds (rounds = %d), or gate a lower percentile (gatePercentile = 90 needs %d)",
                    shown, label(), rounds, roundsAbove(rounds) + 1, roundsNeeded(), roundsNeeded(),
                    new Gate(90, 1, "").roundsNeeded()));
        }
    }

    /** "p99", "p99.9", "p50". */
    String label() {
        return "p" + plain(percentile);
    }

    private static String plain(double v) {
        return Double.isFinite(v) ? java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : String.valueOf(v);
    }
}

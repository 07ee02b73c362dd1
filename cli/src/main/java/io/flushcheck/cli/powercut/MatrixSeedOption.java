package io.flushcheck.cli.powercut;

import picocli.CommandLine.Option;

/**
 * {@code --seed S} of the power-cut matrices, {@code powercut sqlite} and {@code powercut postgres}: what every cut's
 * commits and surviving sectors derive from. A command adds it as a {@code @Mixin}, so that both take it with the same
 * words and the same default.
 */
final class MatrixSeedOption {

    /** The seed unless told otherwise: the same run, and the same figures, every time. */
    static final long DEFAULT_SEED = 2026;

    @Option(names = "--seed", paramLabel = "S", converter = PowerCutConverters.Seed.class,
            description = "the seed every cut's commits and surviving sectors derive from (default " + DEFAULT_SEED + ")")
    Long seed;

    /** {@code --seed}, else {@link #DEFAULT_SEED}. */
    long seed() {
        return seed == null ? DEFAULT_SEED : seed;
    }
}

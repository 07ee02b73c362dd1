package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.DamagedBlock;
import io.flushcheck.powercut.ReadBack;
import java.util.Locale;

/**
 * One check of {@code flushcheck powercut damage}: the block damaged on the survivor (none for the check of the
 * survivor as the cut left it), what was done to it in words, and how VERIFY's read back ended.
 *
 * @param number       0 for the undamaged survivor, then 1 on
 * @param block        the damaged block; null for none
 * @param done         what was done, in words ({@code bit 3 of byte 8200 of db/wal flipped}); null when nothing was
 * @param outcome      how the check ended
 * @param explanation  the outcome in words, opening with what was done
 * @param verifyExit   VERIFY's exit code; null when it did not run or did not end in time
 * @param verifyTail   the last lines of VERIFY's output
 * @param acknowledged the records COMMAND acknowledged
 * @param returned     the records VERIFY wrote to {@code $FLUSHCHECK_READ}; null when it wrote no such file
 */
record DamageCheck(int number, DamagedBlock block, String done, Outcome outcome, String explanation, Integer verifyExit,
                   String verifyTail, int acknowledged, Integer returned) {

    /** How a check ended: {@link ReadBack.Outcome}'s, and two of the command's own. */
    enum Outcome {
        INTACT("intact"),
        DETECTED("detected"),
        SILENT_CORRUPTION("silent corruption"),
        SILENT_LOSS("silent loss"),
        CRASHED("crashed"),
        HUNG("hung"),
        /** VERIFY exited 0 without writing what it read: intact and silent cannot be told apart. */
        PASSED("passed, nothing read back"),
        /** The block's file, or its offset, was not on this survivor: the command left other files this time. */
        NOT_DONE("not done");

        private final String words;

        Outcome(String words) {
            this.words = words;
        }

        static Outcome of(ReadBack.Outcome o) {
            return valueOf(o.name());
        }

        /** {@code silent corruption}: as the text report writes it. */
        String words() {
            return words;
        }

        /** {@code SILENT_CORRUPTION} as the JSON writes it: {@code silent-corruption}. */
        String word() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** Silent corruption and silent loss: the outcomes that fail the run. */
        boolean silent() {
            return this == SILENT_CORRUPTION || this == SILENT_LOSS;
        }
    }

    /** The block as {@code --block} takes it, or {@code nothing damaged}. */
    String site() {
        return block == null ? "nothing damaged" : block.toString();
    }
}

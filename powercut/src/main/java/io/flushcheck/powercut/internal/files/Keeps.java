package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.PowerLossModel.CutMode;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Which of a tree's changes not yet durable a cut keeps: of each log of name changes (the one log under the
 * journaled rules, each directory's under POSIX's) a prefix, and of each file's writes and truncations any
 * of them. A seeded cut draws them; a crash state ({@link StatePick}) names them.
 */
interface Keeps {

    /** Keeps nothing: what was durable. */
    Keeps NOTHING = new Keeps() {
        @Override
        public int namePrefix(long dir, int count) {
            return 0;
        }

        @Override
        public boolean keepsChange(long file, int i) {
            return false;
        }
    };

    /**
     * How many of the {@code count} (at least 1) name changes of a log survive, the first in the order made:
     * {@code dir} 0 for the journaled rules' one log, else the directory's node.
     */
    int namePrefix(long dir, int count);

    /** Whether the {@code i}-th change of file {@code file} since its last sync survives. */
    boolean keepsChange(long file, int i);

    /**
     * What a cut of {@code mode} keeps: nothing more than what was durable, or a subset drawn from {@code seed}.
     * Asked in node order, so the same workload and seed draw the same subset.
     */
    static Keeps seeded(CutMode mode, long seed) {
        if (mode != CutMode.SUBSET) {
            return NOTHING;
        }
        Random random = new Random(seed);
        return new Keeps() {
            @Override
            public int namePrefix(long dir, int count) {
                // The journal's prefix is drawn apart from the writes, and mixed: java.util.Random's first draw
                // differs little between near seeds.
                return dir == 0 ? new SplittableRandom(seed).nextInt(count + 1) : random.nextInt(count + 1);
            }

            @Override
            public boolean keepsChange(long file, int i) {
                return random.nextBoolean();
            }
        };
    }
}

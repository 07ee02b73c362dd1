package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.PowerLossModel.CutMode;
import java.util.SplittableRandom;

/**
 * Which of a tree's changes not yet durable a cut keeps: of each log of name changes (the one log under the
 * journaled rules, each directory's under POSIX's) a prefix, and of each file's changes what a page-cache
 * filesystem can have written back ({@link FilePages}): a prefix in time of its truncations (at least those
 * committed), and of each page a prefix in time of the changes that touched it. A seeded cut draws them; a crash
 * state ({@link StatePick}) names them.
 */
interface Keeps {

    /** Keeps nothing: what was durable. */
    Keeps NOTHING = new Keeps() {
        @Override
        public int namePrefix(long dir, int count) {
            return 0;
        }

        @Override
        public int truncations(long file, FilePages pages) {
            return pages.committed();
        }

        @Override
        public int pagePrefix(long file, FilePages pages, int run, int low, int high) {
            return low;
        }
    };

    /**
     * How many of the {@code count} (at least 1) name changes of a log survive, the first in the order made:
     * {@code dir} 0 for the journaled rules' one log, else the directory's node.
     */
    int namePrefix(long dir, int count);

    /**
     * How many of file {@code file}'s truncations since its last sync survive, the first in the order made: at least
     * those committed already ({@link FilePages#committed()}).
     */
    int truncations(long file, FilePages pages);

    /**
     * How many of the changes that touched the pages of run {@code run} of file {@code file} survive, the first in
     * the order made: from {@code low} to {@code high}, those the truncations kept and lost allow.
     */
    int pagePrefix(long file, FilePages pages, int run, int low, int high);

    /**
     * What a cut of {@code mode} keeps: nothing more than what was durable, or a choice drawn from {@code seed}.
     * Asked in node order, so the same workload and seed draw the same choice.
     */
    static Keeps seeded(CutMode mode, long seed) {
        if (mode != CutMode.SUBSET) {
            return NOTHING;
        }
        // Mixed: java.util.Random's first draw differs little between near seeds. The journal's prefix is drawn
        // apart from the rest, so that it does not depend on how many files there are.
        SplittableRandom random = new SplittableRandom(seed).split();
        return new Keeps() {
            @Override
            public int namePrefix(long dir, int count) {
                return dir == 0 ? new SplittableRandom(seed).nextInt(count + 1) : random.nextInt(count + 1);
            }

            @Override
            public int truncations(long file, FilePages pages) {
                int open = pages.truncations() - pages.committed();
                return open == 0 ? pages.committed() : pages.committed() + random.nextInt(open + 1);
            }

            @Override
            public int pagePrefix(long file, FilePages pages, int run, int low, int high) {
                return low + random.nextInt(high - low + 1);
            }
        };
    }
}

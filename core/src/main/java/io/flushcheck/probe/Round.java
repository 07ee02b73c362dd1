package io.flushcheck.probe;

import java.io.IOException;

/**
 * A round: a write, then a sync. Either may be null where the mode has no such step of its own
 * (an O_DSYNC write syncs inside the write; flush-only writes nothing), and then it is not timed apart.
 */
record Round(Step write, Step sync) {
    static Round of(Step write, Step sync) {
        return new Round(write, sync);
    }

    static Round writeOnly(Step write) {
        return new Round(write, null);
    }

    static Round syncOnly(Step sync) {
        return new Round(null, sync);
    }

    /** Both steps are there: the write and the sync are worth reporting apart. */
    boolean split() {
        return write != null && sync != null;
    }

    /** One step of a round: its write or its sync. */
    @FunctionalInterface
    interface Step {
        void run(int index) throws IOException;
    }
}

package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.CrashStates;
import java.io.PrintStream;
import java.util.Locale;

/**
 * How far an enumeration of crash states is, on stderr as the checks' lines are: a line a second at most, none in
 * its first second (a short one says nothing), none with {@code --quiet}.
 */
final class EnumerationLines implements CrashStates.EnumerationProgress {

    private static final long SECOND = 1_000_000_000L;

    private final PrintStream err;
    private final boolean quiet;
    private final int epochs;
    private final long start = System.nanoTime();
    private long shown = start;

    EnumerationLines(PrintStream err, boolean quiet, int epochs) {
        this.err = err;
        this.quiet = quiet;
        this.epochs = epochs;
    }

    @Override
    public void enumerated(int done, long states) {
        long now = System.nanoTime();
        if (quiet || now - shown < SECOND) {
            return;
        }
        shown = now;
        err.printf(Locale.ROOT, "flushcheck powercut: [%d/%d] epochs enumerated, %d distinct crash states so far%n", done,
                epochs, states);
    }
}

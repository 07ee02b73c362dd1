package io.flushcheck.cli.guests;

import io.flushcheck.cli.common.StatusLine;
import io.flushcheck.guest.GuestOutcome;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The guest environments as they run. On a terminal one line per environment, rewritten with what its
 * runner does now (starting a container, running the probe) and the time so far, replaced by its
 * verdict when it ends; elsewhere one line per environment, as it ends. What the runner could not clean up
 * is said either way, even with {@code --quiet}.
 */
final class GuestProgress implements Consumer<String> {

    private final StatusLine line;
    private final boolean quiet;
    private long start = System.nanoTime();

    GuestProgress(StatusLine line, boolean quiet) {
        this.line = line;
        this.quiet = quiet;
    }

    /** An environment starts. */
    void starting() {
        start = System.nanoTime();
    }

    @Override
    public void accept(String message) {
        if (message.contains(": cannot ")) {
            line.say("flushcheck guests: " + message);
        } else if (!quiet) {
            line.update("flushcheck guests: " + message + ", " + StatusLine.duration(System.nanoTime() - start), true);
        }
    }

    void finished(GuestOutcome o) {
        line.finish("flushcheck guests: " + o.name() + ": " + (o.verdict() == null ? "no result" : o.verdict())
                + String.format(Locale.ROOT, " (%.1f s)", o.elapsedMillis() / 1000.0), true);
    }

    void failed(String name, String why) {
        line.finish("flushcheck guests: " + name + ": failed: " + why, true);
    }
}

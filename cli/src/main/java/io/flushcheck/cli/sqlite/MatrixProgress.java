package io.flushcheck.cli.sqlite;

import io.flushcheck.cli.common.StatusLine;
import io.flushcheck.sqlite.CommitCell;
import io.flushcheck.sqlite.CommitMatrix;
import io.flushcheck.sqlite.MatrixListener;
import io.flushcheck.text.Numbers;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The SQLite matrix as it runs. On a terminal one line for the directory, rewritten as each cell starts
 * ({@code [3/32] WAL/FULL/fullfsync=0/batch=1 [#.........] 12.3 s/~2 min 10 s}), replaced by a summary at the
 * end; elsewhere one line per cell, as it ends, with its rate. With {@code --quiet} only what was done to
 * the user's directory (stale files removed) is said.
 */
final class MatrixProgress implements MatrixListener {

    private final StatusLine line;
    private final boolean quiet;
    private final String dir;
    private final long start = System.nanoTime();
    private int done;
    private int total;

    MatrixProgress(StatusLine line, boolean quiet, Path dir) {
        this.line = line;
        this.quiet = quiet;
        this.dir = dir.toString();
    }

    @Override
    public void staleFilesRemoved(String message) {
        line.say("flushcheck sqlite: " + message);
    }

    @Override
    public void checking(Path d) {
        if (!quiet) {
            line.update("flushcheck sqlite: " + dir + ": checking the directory", true);
        }
    }

    @Override
    public void cellStarted(int index, int total, String label) {
        this.total = total;
        if (quiet || !line.terminal()) {
            return;
        }
        long elapsed = System.nanoTime() - start;
        String expected = index == 0 ? "" : "/~" + StatusLine.duration(elapsed * total / index);
        line.update("flushcheck sqlite: ", dir, String.format(Locale.ROOT, ": [%d/%d] %s %s %s%s", index + 1, total, label,
                StatusLine.bar((double) index / total, 10), StatusLine.duration(elapsed), expected), true);
    }

    @Override
    public void cellFinished(int index, int total, CommitCell c) {
        done++;
        if (quiet) {
            return;
        }
        // No device counters (tmpfs, no /sys): say so rather than print NaN.
        String flushes = Double.isNaN(c.flushesPerCommit()) ? "flushes not counted (no device counters here)"
                : Numbers.perEvent(c.flushesPerCommit()) + " flushes per commit";
        line.step(String.format(Locale.ROOT, "flushcheck sqlite: [%d/%d] %s: %s rows/s, %s", index + 1, total, c.label(),
                Numbers.rate(c.rowsPerSecond()), flushes));
    }

    @Override
    public void cellFailed(int index, int total, String reason) {
        line.say(String.format(Locale.ROOT, "flushcheck sqlite: [%d/%d] %s", index + 1, total, reason));
    }

    @Override
    public void timeLimitReached(int skipped) {
        line.say(String.format(Locale.ROOT, "flushcheck sqlite: total time limit reached in %s: %d cells skipped", dir, skipped));
    }

    /** The matrix ended: on a terminal its line becomes the summary. */
    void finished(CommitMatrix m) {
        if (!quiet) {
            line.finish(String.format(Locale.ROOT, "flushcheck sqlite: %s: %d of %d cells in %s, %s", dir, done, total,
                    StatusLine.duration(m.elapsedMillis() * 1_000_000), m.verdict()), false);
        }
    }
}

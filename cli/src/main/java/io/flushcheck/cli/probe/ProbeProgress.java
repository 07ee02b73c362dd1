package io.flushcheck.cli.probe;

import io.flushcheck.CheckResult;
import io.flushcheck.cli.common.StatusLine;
import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.SyncMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A path's probe as it runs. On a terminal one line, rewritten in place:
 * {@code flushcheck: /data: append-fsync 2/7 [######..........] 600/1000 rounds 1.4 s/~5.2 s} (mode, modes done,
 * rounds done, time so far and the whole's expected time), and when the
 * check ends, its verdict in one line. Elsewhere one line as each mode starts. A class, not a lambda: the
 * cold path (docs/architecture.md).
 */
final class ProbeProgress implements ProbeListener {

    private final StatusLine line;
    private final String path;
    private final List<SyncMode> modes;
    private final long start = System.nanoTime();
    private SyncMode current;
    private int modesDone;

    ProbeProgress(StatusLine line, Path path, List<SyncMode> modes) {
        this.line = line;
        this.path = path.toString();
        this.modes = modes;
    }

    @Override
    public void progress(SyncMode mode, int done, int total) {
        if (done == 0) {
            if (current != null && mode != current) {
                modesDone++;
            }
            current = mode;
            // A mode measured again on a busy device shows as the same mode with more rounds.
            line.step(String.format(Locale.ROOT, "flushcheck: %s: %s, %d rounds", path, mode.id(), total));
        }
        if (!line.terminal()) {
            return;
        }
        long elapsed = System.nanoTime() - start;
        double fraction = (Math.min(modesDone, modes.size() - 1) + (double) done / total) / modes.size();
        String expected = fraction < 0.02 ? "" : "/~" + StatusLine.duration((long) (elapsed / fraction));
        line.update("flushcheck: ", path, String.format(Locale.ROOT, ": %s %d/%d %s %d/%d rounds %s%s", mode.id(),
                Math.min(modes.size(), modesDone + 1), modes.size(), StatusLine.bar((double) done / total, 16), done, total,
                StatusLine.duration(elapsed), expected), done == 0);
    }

    /** The check ended: on a terminal its line becomes the verdict; elsewhere the report says it. */
    void finished(CheckResult r) {
        line.finish(String.format(Locale.ROOT, "flushcheck: %s: %s in %s: %s", path, r.verdict(),
                StatusLine.duration(r.elapsedMillis() * 1_000_000), r.judgement().summary()), false);
    }
}

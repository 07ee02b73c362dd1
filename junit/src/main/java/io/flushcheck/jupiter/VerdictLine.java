package io.flushcheck.jupiter;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.text.Escape;
import io.flushcheck.verdict.Finding;
import java.util.List;
import java.util.Locale;

/**
 * The one line printed for each storage a run judges, so that a CI log shows what was judged: the
 * directory, the verdict, the figure that decided it and when.
 */
final class VerdictLine {

    private VerdictLine() {
    }

    static String of(CheckResult r, String origin) {
        return of(r, decidingFigure(r), origin);
    }

    static String of(CheckResult r, String figure, String origin) {
        return "flushcheck: " + Escape.of(r.path()) + " is " + r.verdict() + ": " + figure + " (" + origin + ", "
                + r.elapsedMillis() + " ms, " + UtcSeconds.of(System.currentTimeMillis()) + ")";
    }

    /** The fewest flushes per sync of any counted syncing mode, else the first reason. */
    static String decidingFigure(CheckResult r) {
        SyncCost weakest = null;
        for (SyncCost c : r.costs()) {
            if (!Double.isNaN(c.flushesPerSync()) && (weakest == null || c.flushesPerSync() < weakest.flushesPerSync())) {
                weakest = c;
            }
        }
        if (weakest != null) {
            return String.format(Locale.ROOT, "%.2f flushes per sync in %s (the fewest of %d modes, %d rounds)",
                    weakest.flushesPerSync(), weakest.mode().id(), r.costs().size(), weakest.rounds());
        }
        List<Finding> reasons = r.judgement().reasons();
        return reasons.isEmpty() ? "no finding" : reasons.get(0).code() + ", " + Escape.of(reasons.get(0).message());
    }
}

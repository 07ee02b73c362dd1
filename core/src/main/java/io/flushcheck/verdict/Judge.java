package io.flushcheck.verdict;

import io.flushcheck.probe.StopRule;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.StorageFacts;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Turns storage facts and measured costs into a {@link Judgement}, following the evidence order
 * of docs/architecture.md: what the path is, then what the device saw, then timing.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Judge {

    private Judge() {
    }

    /**
     * The findings that need no probe I/O. When one of them argues NO_REAL_FLUSH the verdict is
     * decided without writing anything.
     */
    public static List<Finding> staticFindings(StorageFacts facts) {
        return PathFindings.of(facts);
    }

    /** The classes a judgement loads besides this one, in the order it does, for a warm-up that loads them ahead. */
    public static List<Class<?>> partClasses() {
        return List.of(PathFindings.class, CostFindings.class, BottomDevices.class);
    }

    /** True when the static findings already decide NO_REAL_FLUSH, so no probe is needed. */
    public static boolean decidedWithoutProbe(List<Finding> staticFindings) {
        return anyArgues(staticFindings, Verdict.NO_REAL_FLUSH);
    }

    /**
     * The verdict from everything known.
     *
     * @param facts    the storage facts, or null where they could not be inspected
     * @param costs    the measured modes (may be empty)
     * @param extra    findings from elsewhere (probe failures, platform limits)
     */
    public static Judgement judge(StorageFacts facts, List<SyncCost> costs, Thresholds thresholds, List<Finding> extra) {
        List<Finding> all = new ArrayList<>();
        if (facts != null) {
            all.addAll(staticFindings(facts));
        }
        all.addAll(extra);
        all.addAll(costFindings(facts, costs, thresholds));
        Verdict verdict = Verdict.UNKNOWN;
        if (anyArgues(all, Verdict.NO_REAL_FLUSH)) {
            verdict = Verdict.NO_REAL_FLUSH;
        } else if (anyArgues(all, Verdict.UNKNOWN)) {
            // A level whose flushes no counter sees: nothing measured above it can make the path REAL_FLUSH.
            verdict = Verdict.UNKNOWN;
        } else if (anyArgues(all, Verdict.REAL_FLUSH)) {
            verdict = Verdict.REAL_FLUSH;
        }
        // Deciding findings first, then the ones argued the other way, then the informative ones.
        List<Finding> ordered = new ArrayList<>(all.size());
        for (int rank = 0; rank < 3; rank++) {
            for (Finding f : all) {
                Verdict e = f.code().effect();
                if ((e == verdict ? 0 : e == null ? 2 : 1) == rank) {
                    ordered.add(f);
                }
            }
        }
        return new Judgement(verdict, ordered);
    }

    // Plain loops rather than streams, here and in CostFindings: the cold path (docs/architecture.md).
    private static boolean anyArgues(List<Finding> findings, Verdict verdict) {
        for (Finding f : findings) {
            if (f.code().effect() == verdict) {
                return true;
            }
        }
        return false;
    }

    /** The findings from measured costs: what the device saw of each mode's syncs, then their timing. */
    static List<Finding> costFindings(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        return CostFindings.of(facts, costs, t);
    }

    /**
     * When a mode's probe may end before its planned rounds: when the brackets of the rounds so far decide it
     * ({@link BracketRule#decidedEarly}). For the check behind a test annotation, whose verdict is all it reports.
     */
    public static StopRule stopWhenDecided(StorageFacts facts) {
        return (sofar, planned) -> BracketRule.decidedEarly(facts, sofar, planned);
    }

    /**
     * The deciding modes whose flushes the device was too busy to attribute: measuring them again with
     * more rounds can decide them, since the syncs' own flushes grow with the rounds and the estimate's
     * deviation only with their square root (and the chance that idle brackets explain every sync's flush
     * falls as a power of the rounds).
     */
    public static List<SyncMode> tooBusyToTell(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        List<SyncMode> out = new ArrayList<>();
        boolean writeThrough = BottomDevices.writeThrough(facts);
        for (SyncCost c : costs) {
            if (!writeThrough && c.mode().countsForVerdict() && c.hasDeviceCounters()
                    && CostFindings.decision(facts, c, t) == 0) {
                out.add(c.mode());
            }
        }
        return out;
    }
}

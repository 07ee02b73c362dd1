package io.flushcheck.verdict;

import io.flushcheck.probe.FlushBrackets;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.storage.StorageFacts;

/**
 * The brackets' rule: what the flushes that completed while each sync ran ({@link FlushBrackets}) say of a mode,
 * against idle brackets of the same lengths, and when they decide it before its planned rounds end.
 */
final class BracketRule {

    private BracketRule() {
    }

    /**
     * How small the chance must be that syncs reaching no disk would all have met other work's flushes,
     * for the brackets to show that they reached it.
     */
    static final double BRACKET_CHANCE = 1e-6;

    /** Syncs without a flush that decide NO_REAL_FLUSH: at least this many, and {@link #MISSES_SHARE} of them. */
    static final int MIN_MISSES = 3;
    static final double MISSES_SHARE = 0.05;

    /** A mode's brackets where they speak for its chain: a known device (not counted on every disk). */
    static FlushBrackets.Tally bracketsFor(StorageFacts facts, SyncCost c) {
        return facts != null && facts.device() != null && c.brackets() != null && c.brackets().syncs() > 0
                ? c.brackets() : null;
    }

    /**
     * What the brackets say of a mode: 1 when every sync met a flush and other work alone would have
     * given them that many flushes with a chance under {@link #BRACKET_CHANCE} ({@link #decidingDepth});
     * -1 when enough syncs met none; 0 otherwise.
     */
    static int bracketDecision(FlushBrackets.Tally b) {
        if (b == null) {
            return 0;
        }
        int misses = b.syncsWithoutFlush();
        if (misses == 0) {
            return decidingDepth(b) > 0 ? 1 : 0;
        }
        return misses >= MIN_MISSES && misses >= MISSES_SHARE * b.syncs() ? -1 : 0;
    }

    /**
     * The number of flushes k for which the syncs' brackets show their own flushes: every sync met one,
     * and idle brackets would have met k as often as the syncs did with a chance under
     * {@link #BRACKET_CHANCE} shared by the {@link FlushBrackets.Tally#DEPTH} tests; 0 when none does.
     * For one flush, the chance that every sync met one by chance; for more, the binomial tail at the
     * idle brackets' chance raised by {@link FlushCountRule#OTHER_WORK_BIAS}, since they sample other work while the
     * probe does not sync, and it does not run the same while it does.
     */
    static int decidingDepth(FlushBrackets.Tally b) {
        return decidingDepth(b, BRACKET_CHANCE, FlushBrackets.Tally.BOUND_ALPHA);
    }

    /** {@link #decidingDepth(FlushBrackets.Tally)} at another chance, with the idle brackets' bound at {@code boundAlpha}. */
    static int decidingDepth(FlushBrackets.Tally b, double chance, double boundAlpha) {
        if (b == null || b.syncsWithoutFlush() > 0) {
            return 0;
        }
        double each = chance / FlushBrackets.Tally.DEPTH;
        if (b.chanceAllMet(boundAlpha) < each) {
            return 1;
        }
        for (int k = 2; k <= FlushBrackets.Tally.DEPTH; k++) {
            if (b.chanceMeeting(k, FlushCountRule.OTHER_WORK_BIAS, boundAlpha) < each) {
                return k;
            }
        }
        return 0;
    }

    /**
     * Whether the brackets of a mode's rounds so far decide it as the whole plan would be trusted to. NO_REAL_FLUSH
     * when enough syncs met no flush that the whole plan would have as many ({@link #MIN_MISSES}, and
     * {@link #MISSES_SHARE} of the planned rounds): misses only add up, so the planned rounds would decide the same.
     * REAL_FLUSH when every sync so far met a flush and both chances the rule rests on, other work's meeting every
     * sync ({@link #BRACKET_CHANCE}) and the idle brackets' bound missing it (0.1%), hold divided by the planned
     * rounds: the probe looks at most once a round, so over all its looks a device whose syncs reach no disk still
     * passes with no more chance than one look at the planned rounds gives it. Only a chain with one device at the
     * bottom whose cache is volatile: elsewhere the counts (a mirror's legs, a cache that is not known, a
     * write-through disk's written bytes) decide, and those need every planned round.
     */
    static boolean decidedEarly(StorageFacts facts, SyncCost c, int planned) {
        FlushBrackets.Tally b = bracketsFor(facts, c);
        if (!bracketsDecideAlone(facts, c)) {
            return false;
        }
        int misses = b.syncsWithoutFlush();
        if (misses > 0) {
            return misses >= MIN_MISSES && misses >= MISSES_SHARE * planned;
        }
        return decidingDepth(b, BRACKET_CHANCE / planned, FlushBrackets.Tally.BOUND_ALPHA / planned) > 0;
    }

    /**
     * Whether a mode's brackets can decide it on their own ({@link #decidedEarly}): a deciding mode with brackets, on a
     * chain with one device at the bottom whose cache is volatile.
     */
    static boolean bracketsDecideAlone(StorageFacts facts, SyncCost c) {
        return bracketsFor(facts, c) != null && c.mode().countsForVerdict() && !BottomDevices.writeThrough(facts)
                && BottomDevices.terminals(c) == 1
                && "write back".equals(BottomDevices.writeCache(facts, BottomDevices.onlyBottom(c)));
    }

    /**
     * Whether more rounds can still make a mode's brackets show its flushes: they can decide it alone
     * ({@link #bracketsDecideAlone}), every sync so far met a flush, and some idle bracket met none. The chance that
     * other work alone met every sync falls as a power of the syncs, so it passes the bound in enough rounds however
     * rarely an idle bracket misses; where none missed, no count of syncs can show anything.
     */
    static boolean moreRoundsCanShow(StorageFacts facts, SyncCost c) {
        FlushBrackets.Tally b = bracketsFor(facts, c);
        return bracketsDecideAlone(facts, c) && b.syncsWithoutFlush() == 0 && b.controlsMetFlush() < b.controls();
    }
}

package io.flushcheck.verdict;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.FlushBrackets;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.text.Numbers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The findings from measured costs ({@link Judge#costFindings}): what the device saw of each mode's syncs, then
 * their timing.
 */
final class CostFindings {

    private CostFindings() {
    }

    static List<Finding> of(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        List<String> reached = new ArrayList<>();
        boolean writeThrough = BottomDevices.writeThrough(facts);
        String where = facts == null ? "the device" : FindingWording.deviceNames(facts);
        // Counting on every disk (a container's overlay root): other work's flushes can hide missing
        // ones, so there a sync too fast for any flush decides instead of only being noted.
        boolean countedOnEveryDisk = facts != null && facts.device() == null && !facts.flushPoints().isEmpty();
        boolean fuse = facts != null && facts.localFuse();
        List<String> informOnly = new ArrayList<>();
        List<String> notShown = new ArrayList<>();
        // The brackets behind each mode they decided, for the finding's evidence.
        Map<String, String> bracketEvidence = new LinkedHashMap<>();
        for (SyncCost c : costs) {
            if (!c.mode().countsForVerdict()) {
                informOnly.add(c.mode().id());
                continue;
            }
            if (!c.hasDeviceCounters()) {
                if (c.p50Micros() < t.suspiciousSyncMicros()) {
                    out.add(new Finding(FindingCode.SYNC_TOO_FAST, String.format(Locale.ROOT,
                            "%s takes %s µs in the median, faster than any drive cache flush (threshold %s µs)",
                            c.mode().id(), Numbers.micros(c.p50Micros()), Numbers.micros(t.suspiciousSyncMicros())),
                            Finding.evidenceOf("mode", c.mode().id(), "p50Micros", Numbers.micros(c.p50Micros()))));
                } else {
                    out.add(new Finding(FindingCode.NO_DEVICE_COUNTERS, String.format(Locale.ROOT,
                            "%s takes %s µs in the median, but no device counters are visible here to show the "
                                    + "syncs arriving, and timing alone is weak evidence", c.mode().id(), Numbers.micros(c.p50Micros())),
                            Finding.evidenceOf("mode", c.mode().id())));
                }
                continue;
            }
            long wantKib = (long) c.rounds() * c.blockSize() / 1024;
            if (writeThrough) {
                if (c.kibReached() >= wantKib * 9 / 10) {
                    reached.add(String.format(Locale.ROOT, "%s: %d KiB of %d written", c.mode().id(), c.kibReached(), wantKib));
                } else {
                    out.add(new Finding(FindingCode.WRITES_MISSING, String.format(Locale.ROOT,
                            "%s: %d syncs of %d KiB wrote only %d KiB to %s, which has no volatile cache",
                            c.mode().id(), c.rounds(), c.blockSize() / 1024, c.kibReached(), where),
                            Finding.evidenceOf("mode", c.mode().id(), "kibWritten", String.valueOf(c.kibReached()))));
                }
                continue;
            }
            // Only the flushes the syncs caused count: other work's, estimated in the idle windows between
            // the rounds, are taken off, and the verdict waits until the estimate's noise cannot tip it.
            DeviceDelta unsure = BottomDevices.starvedBottom(facts, c, t, false);
            if (unsure != null && BottomDevices.starvedBottom(facts, c, t, true) == null) {
                out.add(new Finding(FindingCode.UNCOUNTED_LEVEL, String.format(Locale.ROOT,
                        "%s: %d syncs, but %s, at the bottom of %s, completed %d flushes meanwhile, and whether it has a "
                                + "volatile write cache is not known (no queue/write_cache): a device without one receives "
                                + "no flushes, so its count shows neither that syncs are kept nor that they are lost",
                        c.mode().id(), c.rounds(), unsure.device(), where, unsure.delta().flushes()),
                        Finding.evidenceOf("mode", c.mode().id(), "device", unsure.device(),
                                "flushes", String.valueOf(unsure.delta().flushes()))));
                notShown.add(c.mode().id());
                continue;
            }
            DeviceDelta starved = BottomDevices.starvedBottom(facts, c, t, true);
            if (starved != null) {
                out.add(new Finding(FindingCode.FLUSHES_MISSING, String.format(Locale.ROOT,
                        "%s: %d syncs, but %s, at the bottom of %s, completed %d flushes meanwhile, other work's included:"
                                + " every device the data lands on must flush for a sync to be kept",
                        c.mode().id(), c.rounds(), starved.device(), where, starved.delta().flushes()),
                        Finding.evidenceOf("mode", c.mode().id(), "syncs", String.valueOf(c.rounds()), "device", starved.device(),
                                "flushes", String.valueOf(starved.delta().flushes()))));
                continue;
            }
            long flushes = c.flushesReached();
            long caused = Math.round(c.flushesCaused());
            FlushBrackets.Tally brackets = BracketRule.bracketsFor(facts, c);
            int bracketed = BracketRule.bracketDecision(brackets);
            int counted = FlushCountRule.decision(c, t);
            int decision = decision(facts, c, t);
            boolean arrived = decision > 0;
            boolean missing = decision < 0;
            // The counts' finding where they decide; the brackets' where only they show the syncs missing.
            boolean bracketsDecideMissing = bracketed < 0 && counted >= 0;
            if (bracketsDecideMissing || bracketed == 0 && brackets != null && brackets.syncsWithoutFlush() > 0) {
                out.add(FindingWording.syncsWithoutFlush(c, brackets, where, bracketsDecideMissing));
            }
            if (bracketed > 0) {
                bracketEvidence.put("brackets." + c.mode().id(), brackets.toString());
                reached.add(FindingWording.bracketsShown(c.mode().id(), brackets));
                if (c.backgroundFlushes() > 0 || FlushCountRule.moreThanSyncsCause(c)) {
                    out.add(FindingWording.otherWork(c, where, flushes, caused, Math.round(c.backgroundFlushes()), true));
                }
                continue;
            }
            long background = Math.round(c.backgroundFlushes());
            if (background > 0 || FlushCountRule.moreThanSyncsCause(c)) {
                out.add(FindingWording.otherWork(c, where, flushes, caused, background, arrived || missing));
            }
            if (!arrived) {
                notShown.add(c.mode().id());
            }
            if (arrived) {
                reached.add(String.format(Locale.ROOT, "%s: %d flushes for %d syncs", c.mode().id(), caused, c.rounds())
                        + (background > 0 ? String.format(Locale.ROOT, " (%d more from other work)", flushes - caused) : ""));
            } else if (missing && fuse) {
                out.add(new Finding(FindingCode.NO_LOCAL_FLUSHES, String.format(Locale.ROOT,
                        "%s: %d syncs caused %d cache flushes on any local disk (%s; %s µs median): the FUSE daemon "
                                + "(%s) either swallows them or sends them elsewhere, where no counter here can see",
                        c.mode().id(), c.rounds(), caused, where, Numbers.micros(c.p50Micros()), facts.fsType()),
                        Finding.evidenceOf("mode", c.mode().id(), "syncs", String.valueOf(c.rounds()),
                                "flushes", String.valueOf(caused), "p50Micros", Numbers.micros(c.p50Micros()))));
            } else if (bracketsDecideMissing) {
                // said by the brackets' finding above
            } else if (missing) {
                Map<String, String> ev = Finding.evidenceOf("mode", c.mode().id(), "syncs", String.valueOf(c.rounds()),
                        "flushes", String.valueOf(caused), "p50Micros", Numbers.micros(c.p50Micros()));
                // The counts decide here, but the brackets, where taken, are the evidence other work cannot
                // inflate: how many syncs met no flush of their own, against idle brackets of the same lengths.
                if (brackets != null) {
                    ev.putAll(FindingWording.bracketEvidence(brackets));
                }
                out.add(new Finding(FindingCode.FLUSHES_MISSING, String.format(Locale.ROOT,
                        "%s: %d of %d syncs reached %s as a cache flush (%s µs median)",
                        c.mode().id(), Math.max(0, caused), c.rounds(), where, Numbers.micros(c.p50Micros())), ev));
            }
            if (arrived && countedOnEveryDisk && c.p50Micros() < t.suspiciousSyncMicros()) {
                out.add(new Finding(FindingCode.SYNC_TOO_FAST, String.format(Locale.ROOT,
                        "%s takes %s µs in the median, faster than any drive cache flush (threshold %s µs); the flushes "
                                + "counted on %s need not be its own", c.mode().id(), Numbers.micros(c.p50Micros()),
                        Numbers.micros(t.suspiciousSyncMicros()), where),
                        Finding.evidenceOf("mode", c.mode().id(), "p50Micros", Numbers.micros(c.p50Micros()))));
            } else if (arrived && c.p50Micros() < t.suspiciousSyncMicros()) {
                out.add(Finding.of(FindingCode.SUSPICIOUSLY_FAST, String.format(Locale.ROOT,
                        "%s takes %s µs in the median, below %s µs, although the device counted its flushes",
                        c.mode().id(), Numbers.micros(c.p50Micros()), Numbers.micros(t.suspiciousSyncMicros()))));
            }
        }
        if (!costs.isEmpty() && informOnly.size() == costs.size()) {
            out.add(Finding.of(FindingCode.NO_DECIDING_MODE, "no measured mode decides the verdict ("
                    + String.join(", ", informOnly) + " only inform); measure append-fsync or overwrite-fdatasync too"));
        }
        // Every deciding mode must show its own flushes: a daemon or an interposer may pass one kind of sync
        // on and swallow another, and a mode the device was too busy to judge proves nothing either way.
        if (!reached.isEmpty() && !notShown.isEmpty()) {
            out.add(0, new Finding(FindingCode.FLUSHES_REACHED_IN_SOME_MODES, "syncs reached " + where + " in "
                    + String.join(", ", reached) + "; but not shown for " + String.join(", ", notShown)
                    + ", and a verdict needs every measured mode's flushes", Finding.evidenceOf("device", where)));
        } else if (!reached.isEmpty()) {
            Map<String, String> ev = Finding.evidenceOf("device", where);
            ev.putAll(bracketEvidence);
            out.add(0, new Finding(writeThrough ? FindingCode.WRITES_REACHED_WRITE_THROUGH : FindingCode.FLUSHES_REACHED,
                    (writeThrough ? where + " has no volatile write cache and the writes reached it: "
                            : "syncs reached " + where + ": ") + String.join(", ", reached), ev));
        }
        return out;
    }

    /**
     * A mode's decision: the brackets first (they see each sync, so other work cannot hide in them); where
     * they say nothing, the counts with other work's estimate taken off ({@link FlushCountRule#decision}).
     * A sync that met no flush keeps the counts from showing the mode's flushes as reached.
     */
    static int decision(StorageFacts facts, SyncCost c, Thresholds t) {
        if (BottomDevices.starvedBottom(facts, c, t, true) != null) {
            return -1;
        }
        if (BottomDevices.starvedBottom(facts, c, t, false) != null) {
            return 0;
        }
        FlushBrackets.Tally b = BracketRule.bracketsFor(facts, c);
        int bracketed = BracketRule.bracketDecision(b);
        if (bracketed != 0) {
            return bracketed;
        }
        int counted = FlushCountRule.decision(c, t);
        return counted > 0 && b != null && b.syncsWithoutFlush() > 0 ? 0 : counted;
    }
}

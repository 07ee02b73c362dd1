package io.flushcheck.verdict;

import io.flushcheck.probe.FlushBrackets;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How findings name the path's devices, and the sentences of the findings the brackets and other work's estimate
 * give.
 */
final class FindingWording {

    private FindingWording() {
    }

    /** The devices the path's flushes reach, as findings name them. */
    static String deviceNames(StorageFacts facts) {
        if (facts.device() != null) {
            return facts.deviceDescription();
        }
        List<String> n = new ArrayList<>();
        for (BlockDevice d : facts.flushPoints()) {
            n.add(d.name());
        }
        return n.isEmpty() ? facts.mount().source() : String.join("+", n);
    }

    static String bracketsShown(String mode, FlushBrackets.Tally b) {
        int k = BracketRule.decidingDepth(b);
        String every = String.format(Locale.ROOT, "%s: every one of %d syncs saw a flush complete at every level while it"
                + " ran", mode, b.syncs());
        if (k == 1) {
            return every + String.format(Locale.ROOT, ", against %d of %d idle brackets of the same lengths",
                    b.controlsMetFlush(), b.controls());
        }
        return every + String.format(Locale.ROOT, " and %d saw %d or more, against %d and %d of %d idle brackets of the"
                        + " same lengths", b.syncsMeeting().get(k - 1), k, b.controlsMetFlush(), b.controlsMeeting().get(k - 1),
                b.controls());
    }

    static Finding syncsWithoutFlush(SyncCost c, FlushBrackets.Tally b, String where, boolean decides) {
        String msg = String.format(Locale.ROOT, "%s: %d of %d syncs returned with no flush completed at every level of %s"
                        + " while they ran (idle brackets of the same lengths met one %d times in %d): a sync that waits"
                        + " for a cache flush always sees one complete, so these did not reach the disk",
                c.mode().id(), b.syncsWithoutFlush(), b.syncs(), where, b.controlsMetFlush(), b.controls());
        Map<String, String> ev = Finding.evidenceOf("mode", c.mode().id(), "syncs", String.valueOf(b.syncs()));
        ev.putAll(bracketEvidence(b));
        return decides ? new Finding(FindingCode.SYNCS_WITHOUT_FLUSH, msg, ev)
                : new Finding(FindingCode.OTHER_DEVICE_WORK, msg + "; too few to decide, but the flushes counted are not"
                        + " shown to be its own", ev);
    }

    /** A mode's brackets as a finding's evidence: the syncs that met no flush, and the idle brackets that met one. */
    static Map<String, String> bracketEvidence(FlushBrackets.Tally b) {
        return Finding.evidenceOf("syncsWithoutFlush", String.valueOf(b.syncsWithoutFlush()),
                "controls", String.valueOf(b.controls()), "controlsMetFlush", String.valueOf(b.controlsMetFlush()));
    }

    static Finding otherWork(SyncCost c, String where, long flushes, long caused, long background, boolean decided) {
        String msg = String.format(Locale.ROOT, "%s: %s served other work during the probe: of %d flushes counted in %d "
                        + "syncs, about %d came from elsewhere (its rate in %d ms of idle windows between the rounds)",
                c.mode().id(), where, flushes, c.rounds(), background, c.idleNanos() / 1_000_000);
        if (FlushCountRule.moreThanSyncsCause(c)) {
            msg += String.format(Locale.ROOT, "; the %.1f left per sync are more than a sync causes, so other work the "
                    + "idle windows missed is in them too, and they do not show the syncs' own", c.flushesPerSync());
        } else if (!decided) {
            msg += String.format(Locale.ROOT, "; %d left for the syncs is too close to the threshold for that estimate "
                    + "to tell: run more rounds, or where the device is quieter", caused);
        }
        return new Finding(FindingCode.OTHER_DEVICE_WORK, msg, Finding.evidenceOf("mode", c.mode().id(),
                "flushes", String.valueOf(flushes), "backgroundFlushes", String.valueOf(background),
                "idleMillis", String.valueOf(c.idleNanos() / 1_000_000)));
    }
}

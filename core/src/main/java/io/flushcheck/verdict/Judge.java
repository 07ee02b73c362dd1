package io.flushcheck.verdict;

import io.flushcheck.probe.StopRule;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.FsTypes;
import io.flushcheck.storage.HostEdge;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.StorageFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        List<Finding> out = new ArrayList<>();
        MountInfo m = facts.mount();
        String ram = facts.ramReason();
        if (ram != null) {
            boolean fs = FsTypes.isRamFs(facts.dataMount().fsType());
            out.add(new Finding(fs ? FindingCode.RAM_FILESYSTEM : FindingCode.RAM_BLOCK_DEVICE,
                    ram + ": syncs reach no device",
                    Finding.evidenceOf("fsType", facts.dataMount().fsType(), "mountPoint", facts.dataMount().mountPoint(),
                            "mountId", String.valueOf(facts.dataMount().mountId()))));
        }
        Environment env = facts.environment();
        for (String interposer : env.interposers()) {
            out.add(new Finding(FindingCode.SYNC_INTERPOSER, interposer.split(" ")[0]
                    + " is loaded in this process " + interposer.substring(interposer.indexOf(' ') + 1)
                    + ": fsync, fdatasync and O_DSYNC return without syncing",
                    Finding.evidenceOf("interposer", interposer)));
        }
        for (String lib : env.preloaded()) {
            if (containsSubstring(env.interposers(), lib)) {
                continue;
            }
            String known = Environment.knownInterposer(lib);
            out.add(new Finding(FindingCode.PRELOADED_LIBRARY, known != null
                    ? "LD_PRELOAD names " + lib + " (" + known + "), but it is not loaded in this process: the dynamic "
                            + "linker ignored it, so it intercepts nothing"
                    : "LD_PRELOAD names " + lib + ", which flushcheck does not know; if it intercepts syncs, the device "
                            + "counters will show it", Finding.evidenceOf("library", lib)));
        }
        List<String> barrierOff = facts.barrierOffOptions();
        if (!barrierOff.isEmpty()) {
            MountInfo d = facts.dataMount();
            out.add(new Finding(FindingCode.BARRIERS_OFF, facts.resolved() + " is on " + d.fsType() + " mounted with "
                    + String.join(",", barrierOff) + " (" + d.mountPoint() + ", mount " + d.mountId()
                    + "): the filesystem sends no cache flushes to " + facts.deviceDescription(),
                    Finding.evidenceOf("options", String.join(",", barrierOff), "mountPoint", d.mountPoint())));
        }
        String chainBarrierOff = facts.chainBarrierOffReason();
        if (chainBarrierOff != null) {
            out.add(new Finding(FindingCode.BARRIERS_OFF, facts.resolved() + " is on " + facts.deviceDescription() + ", and "
                    + chainBarrierOff + ": the loop device's flushes become fsyncs there, which send no cache flush "
                    + "further down", Finding.evidenceOf("chain", facts.deviceDescription())));
        }
        String uncounted = facts.uncountedReason();
        if (uncounted != null) {
            out.add(new Finding(FindingCode.UNCOUNTED_LEVEL, uncounted + ". What becomes of the flushes there is beyond "
                    + "every counter here, so they cannot show that syncs are kept", Finding.evidenceOf("chain", facts.deviceDescription())));
        }
        if (facts.networkOrShared()) {
            out.add(new Finding(FindingCode.NETWORK_FILESYSTEM, facts.resolved() + " is on " + facts.dataMount().fsType()
                    + " from " + facts.dataMount().source() + ": whether a sync is durable is decided on the other side, "
                    + "where no counter here can see it", Finding.evidenceOf("fsType", facts.dataMount().fsType())));
        }
        if (facts.localFuse()) {
            MountInfo d = facts.dataMount();
            out.add(new Finding(FindingCode.FUSE_DAEMON, facts.resolved() + " is on " + d.fsType() + " from " + d.source()
                    + " (" + d.mountPoint() + ", mount " + d.mountId() + "): a FUSE daemon decides what a sync does there, "
                    + "so only flushes arriving on a local disk (" + FindingWording.deviceNames(facts)
                    + ") show that it passes them on",
                    Finding.evidenceOf("fsType", d.fsType(), "source", d.source())));
        }
        if (FsTypes.isOverlay(m.fsType())) {
            out.add(new Finding(FindingCode.OVERLAY, facts.resolved() + " is on overlay (mount " + m.mountId() + "); "
                    + (facts.upperMount() != null ? "its upper layer is on " + facts.upperMount().fsType() + " at "
                    + facts.upperMount().mountPoint() : String.valueOf(facts.flushPointsNote())), Finding.evidenceOf()));
        }
        if (facts.device() != null) {
            HostEdge edge = env.hostEdge();
            for (BlockDevice t : facts.device().terminals()) {
                if (!t.virtualDisk()) {
                    continue;
                }
                String disk = "flushes end at " + t.name() + ", a virtual disk (" + (t.driver() != null ? t.driver() : t.model())
                        + ")";
                if (edge != null && edge.device().equals(t.name())) {
                    out.add(new Finding(edge.flushesReachHost() ? FindingCode.VIRTUAL_DISK : FindingCode.HOST_FLUSHES_MISSING,
                            disk + ", and the host that runs this guest measured that they " + (edge.flushesReachHost()
                                    ? "reach its disk" : "do not reach its disk") + ": " + edge.evidence(),
                            Finding.evidenceOf("device", t.name(), "driver", String.valueOf(t.driver()), "hostEdge", edge.propertyValue())));
                } else {
                    out.add(new Finding(FindingCode.VIRTUAL_DISK, disk + ": whether the host persists them is beyond this "
                            + "guest's edge; compare with a probe on the host",
                            Finding.evidenceOf("device", t.name(), "driver", String.valueOf(t.driver()))));
                }
            }
        }
        if (env.container() != null) {
            out.add(new Finding(FindingCode.CONTAINER, "this process runs in a container (" + env.container() + ")",
                    Finding.evidenceOf("container", env.container())));
        }
        return out;
    }

    /** The classes a judgement loads besides this one, in the order it does, for a warm-up that loads them ahead. */
    public static List<Class<?>> partClasses() {
        return List.of(CostFindings.class, BottomDevices.class, FindingWording.class);
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

    private static boolean containsSubstring(List<String> list, String part) {
        for (String s : list) {
            if (s.contains(part)) {
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
     * {@link #stopWhenDecided(StorageFacts)} for a mode measured again: its brackets so far added to the earlier
     * measurements' ({@code earlier}, by mode), and the chances shared by {@code plannedInAll}, the rounds every
     * measurement of it planned together, as the probe may look once a round in all of them.
     */
    public static StopRule stopWhenDecided(StorageFacts facts, Map<SyncMode, SyncCost> earlier, long plannedInAll) {
        int planned = (int) Math.min(Integer.MAX_VALUE, plannedInAll);
        return (sofar, plannedNow) -> BracketRule.decidedEarly(facts, sofar.withEarlierBrackets(earlier.get(sofar.mode())),
                Math.max(planned, plannedNow));
    }

    /**
     * The deciding modes whose flushes the device was too busy to attribute: measuring them again with
     * more rounds can decide them, since the syncs' own flushes grow with the rounds and the estimate's
     * deviation only with their square root (and the chance that idle brackets explain every sync's flush
     * falls as a power of the rounds).
     */
    public static List<SyncMode> tooBusyToTell(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        return tooBusyToTell(facts, costs, t, false);
    }

    /**
     * Of the modes {@link #tooBusyToTell}, those whose flush brackets more rounds can still make show their flushes:
     * every sync so far met a flush and some idle bracket met none, so the chance that other work alone met them all
     * falls as a power of the syncs; where every idle bracket met one too, no count of rounds shows anything.
     */
    public static List<SyncMode> bracketsCanStillShow(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        return tooBusyToTell(facts, costs, t, true);
    }

    private static List<SyncMode> tooBusyToTell(StorageFacts facts, List<SyncCost> costs, Thresholds t, boolean byBrackets) {
        List<SyncMode> out = new ArrayList<>();
        boolean writeThrough = BottomDevices.writeThrough(facts);
        for (SyncCost c : costs) {
            if (!writeThrough && c.mode().countsForVerdict() && c.hasDeviceCounters()
                    && CostFindings.decision(facts, c, t) == 0 && (!byBrackets || BracketRule.moreRoundsCanShow(facts, c))) {
                out.add(c.mode());
            }
        }
        return out;
    }
}

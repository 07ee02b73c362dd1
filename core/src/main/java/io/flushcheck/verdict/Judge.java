package io.flushcheck.verdict;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.FlushBrackets;
import io.flushcheck.probe.StopRule;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.FsTypes;
import io.flushcheck.storage.HostEdge;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.text.Numbers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
                    evidence("fsType", facts.dataMount().fsType(), "mountPoint", facts.dataMount().mountPoint(),
                            "mountId", String.valueOf(facts.dataMount().mountId()))));
        }
        Environment env = facts.environment();
        for (String interposer : env.interposers()) {
            out.add(new Finding(FindingCode.SYNC_INTERPOSER, interposer.split(" ")[0]
                    + " is loaded in this process " + interposer.substring(interposer.indexOf(' ') + 1)
                    + ": fsync, fdatasync and O_DSYNC return without syncing",
                    evidence("interposer", interposer)));
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
                            + "counters will show it", evidence("library", lib)));
        }
        List<String> barrierOff = facts.barrierOffOptions();
        if (!barrierOff.isEmpty()) {
            MountInfo d = facts.dataMount();
            out.add(new Finding(FindingCode.BARRIERS_OFF, facts.resolved() + " is on " + d.fsType() + " mounted with "
                    + String.join(",", barrierOff) + " (" + d.mountPoint() + ", mount " + d.mountId()
                    + "): the filesystem sends no cache flushes to " + facts.deviceDescription(),
                    evidence("options", String.join(",", barrierOff), "mountPoint", d.mountPoint())));
        }
        String chainBarrierOff = facts.chainBarrierOffReason();
        if (chainBarrierOff != null) {
            out.add(new Finding(FindingCode.BARRIERS_OFF, facts.resolved() + " is on " + facts.deviceDescription() + ", and "
                    + chainBarrierOff + ": the loop device's flushes become fsyncs there, which send no cache flush "
                    + "further down", evidence("chain", facts.deviceDescription())));
        }
        String uncounted = facts.uncountedReason();
        if (uncounted != null) {
            out.add(new Finding(FindingCode.UNCOUNTED_LEVEL, uncounted + ". What becomes of the flushes there is beyond "
                    + "every counter here, so they cannot show that syncs are kept", evidence("chain", facts.deviceDescription())));
        }
        if (facts.networkOrShared()) {
            out.add(new Finding(FindingCode.NETWORK_FILESYSTEM, facts.resolved() + " is on " + facts.dataMount().fsType()
                    + " from " + facts.dataMount().source() + ": whether a sync is durable is decided on the other side, "
                    + "where no counter here can see it", evidence("fsType", facts.dataMount().fsType())));
        }
        if (facts.localFuse()) {
            MountInfo d = facts.dataMount();
            out.add(new Finding(FindingCode.FUSE_DAEMON, facts.resolved() + " is on " + d.fsType() + " from " + d.source()
                    + " (" + d.mountPoint() + ", mount " + d.mountId() + "): a FUSE daemon decides what a sync does there, "
                    + "so only flushes arriving on a local disk (" + deviceNames(facts) + ") show that it passes them on",
                    evidence("fsType", d.fsType(), "source", d.source())));
        }
        if (FsTypes.isOverlay(m.fsType())) {
            out.add(new Finding(FindingCode.OVERLAY, facts.resolved() + " is on overlay (mount " + m.mountId() + "); "
                    + (facts.upperMount() != null ? "its upper layer is on " + facts.upperMount().fsType() + " at "
                    + facts.upperMount().mountPoint() : String.valueOf(facts.flushPointsNote())), evidence()));
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
                            evidence("device", t.name(), "driver", String.valueOf(t.driver()), "hostEdge", edge.propertyValue())));
                } else {
                    out.add(new Finding(FindingCode.VIRTUAL_DISK, disk + ": whether the host persists them is beyond this "
                            + "guest's edge; compare with a probe on the host",
                            evidence("device", t.name(), "driver", String.valueOf(t.driver()))));
                }
            }
        }
        if (env.container() != null) {
            out.add(new Finding(FindingCode.CONTAINER, "this process runs in a container (" + env.container() + ")",
                    evidence("container", env.container())));
        }
        return out;
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

    /** Evidence in the order given (Map.of would scramble it in reports). */
    static Map<String, String> evidence(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    // Plain loops rather than streams, here and in costFindings: the cold path (docs/architecture.md).
    private static boolean anyArgues(List<Finding> findings, Verdict verdict) {
        for (Finding f : findings) {
            if (f.code().effect() == verdict) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyVolatileCache(List<BlockDevice> devices) {
        for (BlockDevice d : devices) {
            if (d.hasVolatileCache()) {
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

    /**
     * The path's device has no volatile write cache at the bottom of its chain ("write through"): there the
     * bytes that reach it decide, not the flushes. One rule for judging and for re-measuring.
     */
    static boolean writeThrough(StorageFacts facts) {
        return facts != null && facts.device() != null && !anyVolatileCache(facts.device().terminals());
    }

    static List<Finding> costFindings(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        List<Finding> out = new ArrayList<>();
        List<String> reached = new ArrayList<>();
        boolean writeThrough = writeThrough(facts);
        String where = facts == null ? "the device" : deviceNames(facts);
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
                            evidence("mode", c.mode().id(), "p50Micros", Numbers.micros(c.p50Micros()))));
                } else {
                    out.add(new Finding(FindingCode.NO_DEVICE_COUNTERS, String.format(Locale.ROOT,
                            "%s takes %s µs in the median, but no device counters are visible here to show the "
                                    + "syncs arriving, and timing alone is weak evidence", c.mode().id(), Numbers.micros(c.p50Micros())),
                            evidence("mode", c.mode().id())));
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
                            evidence("mode", c.mode().id(), "kibWritten", String.valueOf(c.kibReached()))));
                }
                continue;
            }
            // Only the flushes the syncs caused count: other work's, estimated in the idle windows between
            // the rounds, are taken off, and the verdict waits until the estimate's noise cannot tip it.
            DeviceDelta unsure = starvedBottom(facts, c, t, false);
            if (unsure != null && starvedBottom(facts, c, t, true) == null) {
                out.add(new Finding(FindingCode.UNCOUNTED_LEVEL, String.format(Locale.ROOT,
                        "%s: %d syncs, but %s, at the bottom of %s, completed %d flushes meanwhile, and whether it has a "
                                + "volatile write cache is not known (no queue/write_cache): a device without one receives "
                                + "no flushes, so its count shows neither that syncs are kept nor that they are lost",
                        c.mode().id(), c.rounds(), unsure.device(), where, unsure.delta().flushes()),
                        evidence("mode", c.mode().id(), "device", unsure.device(),
                                "flushes", String.valueOf(unsure.delta().flushes()))));
                notShown.add(c.mode().id());
                continue;
            }
            DeviceDelta starved = starvedBottom(facts, c, t, true);
            if (starved != null) {
                out.add(new Finding(FindingCode.FLUSHES_MISSING, String.format(Locale.ROOT,
                        "%s: %d syncs, but %s, at the bottom of %s, completed %d flushes meanwhile, other work's included:"
                                + " every device the data lands on must flush for a sync to be kept",
                        c.mode().id(), c.rounds(), starved.device(), where, starved.delta().flushes()),
                        evidence("mode", c.mode().id(), "syncs", String.valueOf(c.rounds()), "device", starved.device(),
                                "flushes", String.valueOf(starved.delta().flushes()))));
                continue;
            }
            long flushes = c.flushesReached();
            long caused = Math.round(c.flushesCaused());
            FlushBrackets.Tally brackets = bracketsFor(facts, c);
            int bracketed = bracketDecision(brackets);
            int counted = decision(c, t);
            int decision = decision(facts, c, t);
            boolean arrived = decision > 0;
            boolean missing = decision < 0;
            // The counts' finding where they decide; the brackets' where only they show the syncs missing.
            boolean bracketsDecideMissing = bracketed < 0 && counted >= 0;
            if (bracketsDecideMissing || bracketed == 0 && brackets != null && brackets.syncsWithoutFlush() > 0) {
                out.add(syncsWithoutFlush(c, brackets, where, bracketsDecideMissing));
            }
            if (bracketed > 0) {
                bracketEvidence.put("brackets." + c.mode().id(), brackets.toString());
                reached.add(bracketsShown(c.mode().id(), brackets));
                if (c.backgroundFlushes() > 0 || moreThanSyncsCause(c)) {
                    out.add(otherWork(c, where, flushes, caused, Math.round(c.backgroundFlushes()), true));
                }
                continue;
            }
            long background = Math.round(c.backgroundFlushes());
            if (background > 0 || moreThanSyncsCause(c)) {
                out.add(otherWork(c, where, flushes, caused, background, arrived || missing));
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
                        evidence("mode", c.mode().id(), "syncs", String.valueOf(c.rounds()),
                                "flushes", String.valueOf(caused), "p50Micros", Numbers.micros(c.p50Micros()))));
            } else if (bracketsDecideMissing) {
                // said by the brackets' finding above
            } else if (missing) {
                out.add(new Finding(FindingCode.FLUSHES_MISSING, String.format(Locale.ROOT,
                        "%s: %d of %d syncs reached %s as a cache flush (%s µs median)",
                        c.mode().id(), Math.max(0, caused), c.rounds(), where, Numbers.micros(c.p50Micros())),
                        evidence("mode", c.mode().id(), "syncs", String.valueOf(c.rounds()),
                                "flushes", String.valueOf(caused), "p50Micros", Numbers.micros(c.p50Micros()))));
            }
            if (arrived && countedOnEveryDisk && c.p50Micros() < t.suspiciousSyncMicros()) {
                out.add(new Finding(FindingCode.SYNC_TOO_FAST, String.format(Locale.ROOT,
                        "%s takes %s µs in the median, faster than any drive cache flush (threshold %s µs); the flushes "
                                + "counted on %s need not be its own", c.mode().id(), Numbers.micros(c.p50Micros()),
                        Numbers.micros(t.suspiciousSyncMicros()), where),
                        evidence("mode", c.mode().id(), "p50Micros", Numbers.micros(c.p50Micros()))));
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
                    + ", and a verdict needs every measured mode's flushes", evidence("device", where)));
        } else if (!reached.isEmpty()) {
            Map<String, String> ev = evidence("device", where);
            ev.putAll(bracketEvidence);
            out.add(0, new Finding(writeThrough ? FindingCode.WRITES_REACHED_WRITE_THROUGH : FindingCode.FLUSHES_REACHED,
                    (writeThrough ? where + " has no volatile write cache and the writes reached it: "
                            : "syncs reached " + where + ": ") + String.join(", ", reached), ev));
        }
        return out;
    }

    /**
     * How far the estimate of other work may be off beyond its statistical deviation, as a share of it.
     * The idle windows sample other work while the probe does not sync, and that work does not run the
     * same while it does: under four fio jobs fdatasyncing on the disk below, a FUSE daemon that swallows
     * every sync saw 11 to 12% more flushes during its rounds than the windows predicted (3254 against
     * 2931, 4471 against 4011), enough to pass for its own had that not been allowed for.
     */
    static final double OTHER_WORK_BIAS = 0.25;

    /**
     * Whether a mode's syncs caused their flushes: 1 when its own flushes clear the threshold by more
     * than three deviations of the other-work estimate plus {@link #OTHER_WORK_BIAS} of it, -1 when they miss it by as much (or too few
     * were counted at all: other work only adds), 0 when the device was too busy to tell.
     */
    private static int decision(SyncCost c, Thresholds t) {
        if (moreThanSyncsCause(c)) {
            // The idle windows missed some of the other work, so the estimate cannot be trusted to have taken
            // all of it off.
            return 0;
        }
        double caused = c.flushesCaused();
        double noise = 3 * c.backgroundDeviation() + OTHER_WORK_BIAS * Math.max(0, c.backgroundFlushes());
        double want = t.minFlushesPerSync() * c.rounds();
        if (caused - noise >= want) {
            return 1;
        }
        return caused + noise < want || c.flushesReached() < want ? -1 : 0;
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
    private static FlushBrackets.Tally bracketsFor(StorageFacts facts, SyncCost c) {
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
     * idle brackets' chance raised by {@link #OTHER_WORK_BIAS}, since they sample other work while the
     * probe does not sync, and it does not run the same while it does.
     */
    static int decidingDepth(FlushBrackets.Tally b) {
        return decidingDepth(b, BRACKET_CHANCE, FlushBrackets.Tally.BOUND_ALPHA);
    }

    /** {@link #decidingDepth(FlushBrackets.Tally)} at another chance, with the idle brackets' bound at {@code boundAlpha}. */
    private static int decidingDepth(FlushBrackets.Tally b, double chance, double boundAlpha) {
        if (b == null || b.syncsWithoutFlush() > 0) {
            return 0;
        }
        double each = chance / FlushBrackets.Tally.DEPTH;
        if (b.chanceAllMet(boundAlpha) < each) {
            return 1;
        }
        for (int k = 2; k <= FlushBrackets.Tally.DEPTH; k++) {
            if (b.chanceMeeting(k, OTHER_WORK_BIAS, boundAlpha) < each) {
                return k;
            }
        }
        return 0;
    }

    /**
     * When a mode's probe may end before its planned rounds: when the brackets of the rounds so far decide it
     * ({@link #decidedEarly}). For the check behind a test annotation, whose verdict is all it reports.
     */
    public static StopRule stopWhenDecided(StorageFacts facts) {
        return (sofar, planned) -> decidedEarly(facts, sofar, planned);
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
        if (b == null || !c.mode().countsForVerdict() || writeThrough(facts) || terminals(c) != 1
                || !"write back".equals(writeCache(facts, onlyBottom(c)))) {
            return false;
        }
        int misses = b.syncsWithoutFlush();
        if (misses > 0) {
            return misses >= MIN_MISSES && misses >= MISSES_SHARE * planned;
        }
        return decidingDepth(b, BRACKET_CHANCE / planned, FlushBrackets.Tally.BOUND_ALPHA / planned) > 0;
    }

    private static String onlyBottom(SyncCost c) {
        for (DeviceDelta d : c.devices()) {
            if (d.terminal() && d.delta().countsFlushes()) {
                return d.device();
            }
        }
        return "";
    }

    private static String bracketsShown(String mode, FlushBrackets.Tally b) {
        int k = decidingDepth(b);
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

    /**
     * A mode's decision: the brackets first (they see each sync, so other work cannot hide in them); where
     * they say nothing, the counts with other work's estimate taken off ({@link #decision(SyncCost, Thresholds)}).
     * A sync that met no flush keeps the counts from showing the mode's flushes as reached.
     */
    private static int decision(StorageFacts facts, SyncCost c, Thresholds t) {
        if (starvedBottom(facts, c, t, true) != null) {
            return -1;
        }
        if (starvedBottom(facts, c, t, false) != null) {
            return 0;
        }
        FlushBrackets.Tally b = bracketsFor(facts, c);
        int bracketed = bracketDecision(b);
        if (bracketed != 0) {
            return bracketed;
        }
        int counted = decision(c, t);
        return counted > 0 && b != null && b.syncsWithoutFlush() > 0 ? 0 : counted;
    }

    /**
     * A device at the bottom of a known chain that completed fewer flushes than the syncs need, other work's
     * included, or null. The counts and the brackets take the devices at the bottom together (a mirror's legs
     * each flush, and other work may run on either), so a leg that took none could hide behind the others';
     * every device the data lands on must show them. Not where flushes are counted on every disk in place of
     * a chain: there the syncs land on one of them. Only a device whose write cache is volatile ("write back")
     * receives flushes: one without ("write through") is not asked for any; one whose cache is not known is
     * looked for with {@code writeBack} false, and shows nothing either way.
     */
    private static DeviceDelta starvedBottom(StorageFacts facts, SyncCost c, Thresholds t, boolean writeBack) {
        if (facts == null || facts.device() == null || !c.hasDeviceCounters()) {
            return null;
        }
        double want = t.minFlushesPerSync() * c.rounds();
        DeviceDelta starved = null;
        int bottoms = 0;
        for (DeviceDelta d : c.devices()) {
            if (d.terminal() && d.delta().countsFlushes()) {
                bottoms++;
                String cache = writeCache(facts, d.device());
                boolean asked = writeBack ? "write back".equals(cache) : cache == null;
                if (asked && d.delta().flushes() < want
                        && (starved == null || d.delta().flushes() < starved.delta().flushes())) {
                    starved = d;
                }
            }
        }
        return bottoms > 1 ? starved : null;
    }

    /** {@code queue/write_cache} of the device named so in the facts' graph, or null when not known. */
    private static String writeCache(StorageFacts facts, String name) {
        for (BlockDevice top : facts.devices()) {
            for (BlockDevice d : top.levels()) {
                if (d.name().equals(name)) {
                    return d.writeCache() == null ? null : d.writeCache().trim();
                }
            }
        }
        return null;
    }

    private static Finding syncsWithoutFlush(SyncCost c, FlushBrackets.Tally b, String where, boolean decides) {
        String msg = String.format(Locale.ROOT, "%s: %d of %d syncs returned with no flush completed at every level of %s"
                        + " while they ran (idle brackets of the same lengths met one %d times in %d): a sync that waits"
                        + " for a cache flush always sees one complete, so these did not reach the disk",
                c.mode().id(), b.syncsWithoutFlush(), b.syncs(), where, b.controlsMetFlush(), b.controls());
        Map<String, String> ev = evidence("mode", c.mode().id(), "syncs", String.valueOf(b.syncs()),
                "syncsWithoutFlush", String.valueOf(b.syncsWithoutFlush()), "controls", String.valueOf(b.controls()),
                "controlsMetFlush", String.valueOf(b.controlsMetFlush()));
        return decides ? new Finding(FindingCode.SYNCS_WITHOUT_FLUSH, msg, ev)
                : new Finding(FindingCode.OTHER_DEVICE_WORK, msg + "; too few to decide, but the flushes counted are not"
                        + " shown to be its own", ev);
    }

    /**
     * The deciding modes whose flushes the device was too busy to attribute: measuring them again with
     * more rounds can decide them, since the syncs' own flushes grow with the rounds and the estimate's
     * deviation only with their square root (and the chance that idle brackets explain every sync's flush
     * falls as a power of the rounds).
     */
    public static List<SyncMode> tooBusyToTell(StorageFacts facts, List<SyncCost> costs, Thresholds t) {
        List<SyncMode> out = new ArrayList<>();
        boolean writeThrough = writeThrough(facts);
        for (SyncCost c : costs) {
            if (!writeThrough && c.mode().countsForVerdict() && c.hasDeviceCounters() && decision(facts, c, t) == 0) {
                out.add(c.mode());
            }
        }
        return out;
    }

    /**
     * More flushes per sync than a sync can cause: fsync on ext4, xfs or btrfs sends at most a journal
     * commit's flush and the data's, plus a FUA write counted as one more on some drivers.
     */
    static final double MOST_FLUSHES_A_SYNC_EXPLAINS = 3;

    /** More flushes left per sync than syncs cause: {@link #MOST_FLUSHES_A_SYNC_EXPLAINS} per disk at the bottom. */
    private static boolean moreThanSyncsCause(SyncCost c) {
        return c.flushesPerSync() > MOST_FLUSHES_A_SYNC_EXPLAINS * Math.max(1, terminals(c));
    }

    private static int terminals(SyncCost c) {
        int n = 0;
        for (DeviceDelta d : c.devices()) {
            if (d.terminal()) {
                n++;
            }
        }
        return n;
    }

    private static Finding otherWork(SyncCost c, String where, long flushes, long caused, long background, boolean decided) {
        String msg = String.format(Locale.ROOT, "%s: %s served other work during the probe: of %d flushes counted in %d "
                        + "syncs, about %d came from elsewhere (its rate in %d ms of idle windows between the rounds)",
                c.mode().id(), where, flushes, c.rounds(), background, c.idleNanos() / 1_000_000);
        if (moreThanSyncsCause(c)) {
            msg += String.format(Locale.ROOT, "; the %.1f left per sync are more than a sync causes, so other work the "
                    + "idle windows missed is in them too, and they do not show the syncs' own", c.flushesPerSync());
        } else if (!decided) {
            msg += String.format(Locale.ROOT, "; %d left for the syncs is too close to the threshold for that estimate "
                    + "to tell: run more rounds, or where the device is quieter", caused);
        }
        return new Finding(FindingCode.OTHER_DEVICE_WORK, msg, evidence("mode", c.mode().id(),
                "flushes", String.valueOf(flushes), "backgroundFlushes", String.valueOf(background),
                "idleMillis", String.valueOf(c.idleNanos() / 1_000_000)));
    }

    private static String deviceNames(StorageFacts facts) {
        if (facts.device() != null) {
            return facts.deviceDescription();
        }
        List<String> n = new ArrayList<>();
        for (BlockDevice d : facts.flushPoints()) {
            n.add(d.name());
        }
        return n.isEmpty() ? facts.mount().source() : String.join("+", n);
    }
}

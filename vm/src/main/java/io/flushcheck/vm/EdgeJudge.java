package io.flushcheck.vm;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Judgement;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A guest's verdict from both sides of its virtual disk: the flushes its own disk completed (what QEMU
 * acknowledged) against the flushes the host's loop device under it received (what QEMU did). Per mode that
 * takes part in verdicts, with N syncs and the threshold t·N ({@link Thresholds#minFlushesPerSync()}):
 * <ul>
 * <li>a guest disk with a write-back cache that completed at least t·N flushes, over a host device that
 * received at least t·N: {@code HOST_FLUSHES_REACHED}; fewer on the host: {@code HOST_FLUSHES_MISSING};</li>
 * <li>a write-through guest disk (it sends no flushes) over a host device that completed at least t·N flushes
 * (the host synced the writes): {@code HOST_WRITES_SYNCED}; fewer: {@code HOST_FLUSHES_MISSING};</li>
 * <li>a write-back guest disk that completed fewer than t·N flushes: {@code FLUSHES_MISSING} (the guest's
 * own syncs do not flush).</li>
 * </ul>
 * The host directory holding the image is judged too: NO_REAL_FLUSH there is {@code HOST_STORAGE_NO_REAL_FLUSH}.
 * The verdict follows the rule of {@link io.flushcheck.verdict.Judge}: any NO_REAL_FLUSH finding, else any
 * REAL_FLUSH finding, else UNKNOWN.
 */
final class EdgeJudge {

    private EdgeJudge() {
    }

    static Judgement judge(CacheMode cache, String guestWriteCache, String guestDevice, String hostDevice,
                           List<SyncCost> costs, CheckResult hostStorage, Thresholds t) {
        boolean writeThrough = guestWriteCache != null && guestWriteCache.contains("through");
        Map<FindingCode, List<String>> parts = new LinkedHashMap<>();
        Map<FindingCode, Map<String, String>> evidence = new LinkedHashMap<>();
        for (SyncCost c : costs) {
            if (!c.mode().countsForVerdict()) {
                continue;
            }
            long n = c.rounds();
            long guestFlushes = flushes(c, guestDevice);
            long hostFlushes = flushes(c, hostDevice);
            long guestWrites = writes(c, guestDevice);
            double need = t.minFlushesPerSync() * n;
            FindingCode code;
            String text;
            if (writeThrough) {
                code = hostFlushes >= need ? FindingCode.HOST_WRITES_SYNCED : FindingCode.HOST_FLUSHES_MISSING;
                text = String.format(Locale.ROOT, "%s: %d syncs, %d writes and %d flushes on the guest's write-through %s, "
                        + "%d flushes on the host's %s", c.mode().id(), n, guestWrites, guestFlushes, guestDevice, hostFlushes,
                        hostDevice);
            } else if (guestFlushes < need) {
                code = FindingCode.FLUSHES_MISSING;
                text = String.format(Locale.ROOT, "%s: %d syncs, only %d flushes on the guest's %s", c.mode().id(), n,
                        guestFlushes, guestDevice);
            } else {
                code = hostFlushes >= need ? FindingCode.HOST_FLUSHES_REACHED : FindingCode.HOST_FLUSHES_MISSING;
                text = String.format(Locale.ROOT, "%s: %d syncs, %d flushes completed on the guest's %s, %d received by the "
                        + "host's %s", c.mode().id(), n, guestFlushes, guestDevice, hostFlushes, hostDevice);
            }
            parts.computeIfAbsent(code, k -> new ArrayList<>()).add(text);
            Map<String, String> ev = evidence.computeIfAbsent(code, k -> new LinkedHashMap<>());
            ev.put(c.mode().id() + ".syncs", Long.toString(n));
            ev.put(c.mode().id() + ".guestFlushes", Long.toString(guestFlushes));
            ev.put(c.mode().id() + ".hostFlushes", Long.toString(hostFlushes));
        }
        List<Finding> findings = new ArrayList<>();
        for (Map.Entry<FindingCode, List<String>> e : parts.entrySet()) {
            String joined = String.join("; ", e.getValue());
            String message = switch (e.getKey()) {
                case HOST_FLUSHES_REACHED -> "cache=" + cache.id() + ": the guest's flushes reached the host's disk " + hostDevice
                        + ": " + joined;
                case HOST_WRITES_SYNCED -> "cache=" + cache.id() + ": the guest's disk is write-through and the host synced its "
                        + "writes on " + hostDevice + ": " + joined;
                case HOST_FLUSHES_MISSING -> "cache=" + cache.id() + ": the guest's syncs completed but the host's disk "
                        + hostDevice + " did not receive their flushes (QEMU acknowledged flushes it did not perform): " + joined;
                default -> "the guest's own syncs do not flush its disk: " + joined;
            };
            findings.add(new Finding(e.getKey(), message, evidence.get(e.getKey())));
        }
        if (hostStorage != null) {
            Verdict hv = hostStorage.verdict();
            String where = "the disk image is in " + hostStorage.path() + ", " + hv + " on the host";
            findings.add(new Finding(hv == Verdict.NO_REAL_FLUSH ? FindingCode.HOST_STORAGE_NO_REAL_FLUSH : FindingCode.HOST_STORAGE,
                    where + ": " + hostStorage.judgement().summary(), Map.of("hostVerdict", hv.name())));
        }
        if (findings.isEmpty()) {
            findings.add(Finding.of(FindingCode.NO_DECIDING_MODE, "no mode of the plan takes part in verdicts"));
        }
        return decide(findings);
    }

    /**
     * Judge's rule: NO_REAL_FLUSH if any finding argues for it, else UNKNOWN if any caps it there, else
     * REAL_FLUSH if any argues for that, else UNKNOWN; deciding findings first.
     */
    static Judgement decide(List<Finding> findings) {
        boolean no = false;
        boolean capped = false;
        boolean real = false;
        for (Finding f : findings) {
            no |= f.code().effect() == Verdict.NO_REAL_FLUSH;
            capped |= f.code().effect() == Verdict.UNKNOWN;
            real |= f.code().effect() == Verdict.REAL_FLUSH;
        }
        Verdict v = no ? Verdict.NO_REAL_FLUSH : capped || !real ? Verdict.UNKNOWN : Verdict.REAL_FLUSH;
        List<Finding> ordered = new ArrayList<>();
        for (Finding f : findings) {
            if (f.code().effect() == v) {
                ordered.add(f);
            }
        }
        for (Finding f : findings) {
            if (f.code().effect() != null && f.code().effect() != v) {
                ordered.add(f);
            }
        }
        for (Finding f : findings) {
            if (f.code().effect() == null) {
                ordered.add(f);
            }
        }
        return new Judgement(v, ordered);
    }

    static long flushes(SyncCost c, String device) {
        for (DeviceDelta d : c.devices()) {
            if (d.device().equals(device)) {
                return d.delta().flushes();
            }
        }
        return -1;
    }

    static long writes(SyncCost c, String device) {
        for (DeviceDelta d : c.devices()) {
            if (d.device().equals(device)) {
                return d.delta().writesCompleted();
            }
        }
        return -1;
    }
}

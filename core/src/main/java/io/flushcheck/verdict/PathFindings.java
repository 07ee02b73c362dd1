package io.flushcheck.verdict;

import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.FsTypes;
import io.flushcheck.storage.HostEdge;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.StorageFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * The findings about what the path is, which need no probe I/O ({@link Judge#staticFindings}): RAM, interposers,
 * barriers off, network and FUSE filesystems, overlay, virtual disks, containers.
 */
final class PathFindings {

    private PathFindings() {
    }

    /**
     * The findings that need no probe I/O. When one of them argues NO_REAL_FLUSH the verdict is
     * decided without writing anything.
     */
    static List<Finding> of(StorageFacts facts) {
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
                    + "so only flushes arriving on a local disk (" + deviceNames(facts) + ") show that it passes them on",
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

    private static boolean containsSubstring(List<String> list, String part) {
        for (String s : list) {
            if (s.contains(part)) {
                return true;
            }
        }
        return false;
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
}

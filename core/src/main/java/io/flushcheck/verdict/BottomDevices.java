package io.flushcheck.verdict;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import java.util.List;

/**
 * The devices at the bottom of the path's chain, where syncs must end as flushes: whether they have a volatile
 * write cache, and one that flushed too little for the syncs ({@link #starvedBottom}).
 */
final class BottomDevices {

    private BottomDevices() {
    }

    /**
     * The path's device has no volatile write cache at the bottom of its chain ("write through"): there the
     * bytes that reach it decide, not the flushes. One rule for judging and for re-measuring.
     */
    static boolean writeThrough(StorageFacts facts) {
        return facts != null && facts.device() != null && !anyVolatileCache(facts.device().terminals());
    }

    static boolean anyVolatileCache(List<BlockDevice> devices) {
        for (BlockDevice d : devices) {
            if (d.hasVolatileCache()) {
                return true;
            }
        }
        return false;
    }

    static int terminals(SyncCost c) {
        int n = 0;
        for (DeviceDelta d : c.devices()) {
            if (d.terminal()) {
                n++;
            }
        }
        return n;
    }

    static String onlyBottom(SyncCost c) {
        for (DeviceDelta d : c.devices()) {
            if (d.terminal() && d.delta().countsFlushes()) {
                return d.device();
            }
        }
        return "";
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
    static DeviceDelta starvedBottom(StorageFacts facts, SyncCost c, Thresholds t, boolean writeBack) {
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
    static String writeCache(StorageFacts facts, String name) {
        for (BlockDevice top : facts.devices()) {
            for (BlockDevice d : top.levels()) {
                if (d.name().equals(name)) {
                    return d.writeCache() == null ? null : d.writeCache().trim();
                }
            }
        }
        return null;
    }
}

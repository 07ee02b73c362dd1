package io.flushcheck.probe;

import io.flushcheck.storage.DeviceStat;
import java.util.List;

/**
 * What one device did while a loop (or one round) ran.
 *
 * @param device   kernel name
 * @param terminal true for a device at the bottom of the chain, where flushes land
 * @param delta    counter differences
 */
public record DeviceDelta(String device, boolean terminal, DeviceStat delta) {

    /** True when every device reports flush counts (kernels since 5.5). */
    public static boolean countFlushes(List<DeviceDelta> deltas) {
        if (deltas.isEmpty()) {
            return false;
        }
        for (DeviceDelta d : deltas) {
            if (!d.delta().countsFlushes()) {
                return false;
            }
        }
        return true;
    }

    /** Flushes completed by the terminal devices, or -1 when not counted. */
    public static long terminalFlushes(List<DeviceDelta> deltas) {
        return countFlushes(deltas) ? terminalSum(deltas, true) : -1;
    }

    /** KiB written by the terminal devices, or -1 when nothing was counted. */
    public static long terminalKib(List<DeviceDelta> deltas) {
        return deltas.isEmpty() ? -1 : terminalSum(deltas, false);
    }

    /**
     * Flushes that got all the way down: the fewest seen at any level of the chain (the mount's own
     * device, then the terminals). A loop device mounted nobarrier sees none even when its disk is busy.
     * -1 when not counted.
     */
    public static long flushesReached(List<DeviceDelta> deltas) {
        return countFlushes(deltas) ? reached(deltas, true) : -1;
    }

    /** KiB that got all the way down, by the rule of {@link #flushesReached(List)}; -1 when not counted. */
    public static long kibReached(List<DeviceDelta> deltas) {
        return deltas.isEmpty() ? -1 : reached(deltas, false);
    }

    private static long reached(List<DeviceDelta> deltas, boolean flushes) {
        long reached = terminalSum(deltas, flushes);
        for (DeviceDelta d : deltas) {
            if (!d.terminal()) {
                reached = Math.min(reached, flushes ? d.delta().flushes() : d.delta().kibWritten());
            }
        }
        return reached;
    }

    private static long terminalSum(List<DeviceDelta> deltas, boolean flushes) {
        long sum = 0;
        for (DeviceDelta d : deltas) {
            if (d.terminal()) {
                sum += flushes ? d.delta().flushes() : d.delta().kibWritten();
            }
        }
        return sum;
    }
}

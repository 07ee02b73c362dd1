package io.flushcheck.probe;

import io.flushcheck.storage.DeviceStat;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What one device did while a loop (or one round) ran, and in the idle windows taken between its
 * rounds.
 *
 * @param device   kernel name
 * @param terminal true for a device at the bottom of the chain, where flushes land
 * @param delta    counter differences over the syncing rounds
 * @param idle     counter differences over the idle windows between the rounds, where nothing of
 *                 flushcheck's ran: the device's other work; null when none were taken
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record DeviceDelta(String device, boolean terminal, DeviceStat delta, DeviceStat idle) {

    public DeviceDelta(String device, boolean terminal, DeviceStat delta) {
        this(device, terminal, delta, null);
    }

    /** True when every device reports flush counts (kernels since 5.5). */
    static boolean countFlushes(List<DeviceDelta> deltas) {
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
    static long terminalFlushes(List<DeviceDelta> deltas) {
        return countFlushes(deltas) ? terminalSum(deltas, true) : -1;
    }

    /** KiB written by the terminal devices, or -1 when nothing was counted. */
    static long terminalKib(List<DeviceDelta> deltas) {
        return deltas.isEmpty() ? -1 : terminalSum(deltas, false);
    }

    /**
     * Flushes that got all the way down: the fewest seen at any level of the chain (the mount's own
     * device, each level under it, the sum over the terminals). A loop device mounted nobarrier sees
     * none even when its disk is busy. -1 when not counted.
     */
    public static long flushesReached(List<DeviceDelta> deltas) {
        return countFlushes(deltas) ? reached(deltas, true) : -1;
    }

    /** KiB that got all the way down, by the rule of {@link #flushesReached(List)}; -1 when not counted. */
    public static long kibReached(List<DeviceDelta> deltas) {
        return deltas.isEmpty() ? -1 : reached(deltas, false);
    }

    /**
     * {@link #flushesReached(List)} less each device's other work: a device's flushes in the idle
     * windows, scaled by {@code scale} (syncing time over idle time), are taken off its count before the
     * rule picks the fewest. -1 when not counted.
     */
    static double flushesCaused(List<DeviceDelta> deltas, double scale) {
        return countFlushes(deltas) ? caused(deltas, scale)[0] : -1;
    }

    /**
     * The standard deviation of {@link #flushesCaused} at the level that gives it: the idle windows
     * sample the other work's rate, and a count of k has a deviation of about √k (Poisson), scaled
     * (over the terminals, summed in square).
     */
    static double backgroundDeviation(List<DeviceDelta> deltas, double scale) {
        return countFlushes(deltas) ? caused(deltas, scale)[1] : 0;
    }

    /** {caused, deviation}: the level with the fewest caused flushes, and its estimate's deviation. */
    private static double[] caused(List<DeviceDelta> deltas, double scale) {
        double terminals = 0;
        double terminalVariance = 0;
        double fewest = Double.MAX_VALUE;
        double fewestVariance = 0;
        for (DeviceDelta d : deltas) {
            double caused = Math.max(0, d.delta().flushes() - d.idleFlushes() * scale);
            double variance = d.idleFlushes() * scale * scale;
            if (d.terminal()) {
                terminals += caused;
                terminalVariance += variance;
            } else if (caused < fewest) {
                fewest = caused;
                fewestVariance = variance;
            }
        }
        return fewest < terminals ? new double[] {fewest, Math.sqrt(fewestVariance)}
                : new double[] {terminals, Math.sqrt(terminalVariance)};
    }

    /** Flushes from other work during the loop, estimated from the idle windows, on the busiest device. */
    static double backgroundFlushes(List<DeviceDelta> deltas, double scale) {
        double most = 0;
        for (DeviceDelta d : deltas) {
            most = Math.max(most, d.idleFlushes() * scale);
        }
        return most;
    }

    private long idleFlushes() {
        return idle == null ? 0 : Math.max(0, idle.flushes());
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

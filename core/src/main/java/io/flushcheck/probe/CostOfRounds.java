package io.flushcheck.probe;

import io.flushcheck.storage.DeviceStat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A mode's {@link SyncCost} from its measured rounds: latencies, slowest rounds and median round of those not left
 * out after an idle window, and what the devices counted.
 */
final class CostOfRounds {

    private CostOfRounds() {
    }

    /**
     * The cost of the first {@code rounds} rounds measured; its latencies, slowest rounds and median round of
     * those not marked in {@code afterWindow} (null: of all of them).
     */
    static SyncCost cost(DeviceCounters counters, SyncMode mode, ProbePlan plan, int rounds, long[] allNanos,
                         long[] allWriteNanos, long[] allSyncNanos, boolean[] afterWindow, long[] allRoundFlushes,
                         long[] allRoundKib, long loopNanos, long idleNanos, DeviceStat[] syncing, DeviceStat[] idle,
                         FlushBrackets.Tally tally) {
        int[] kept = kept(rounds, afterWindow);
        long[] nanos = pick(allNanos, kept);
        boolean split = allWriteNanos != null;

        LatencyDistribution h = LatencyDistribution.ofNanos(nanos);
        Integer[] order = new Integer[kept.length];
        for (int k = 0; k < kept.length; k++) {
            order[k] = kept[k];
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> allNanos[i]).reversed());
        List<SlowRound> slowest = new ArrayList<>();
        for (int k = 0; k < Math.min(plan.slowRounds(), order.length); k++) {
            slowest.add(slowRound(order[k], allNanos, allRoundFlushes, allRoundKib));
        }
        SlowRound median = slowRound(order[order.length / 2], allNanos, allRoundFlushes, allRoundKib);
        List<DeviceDelta> devices = syncing == null ? List.of() : counters.deltas(syncing, idle);
        LatencyDistribution writes = split ? LatencyDistribution.ofNanos(pick(allWriteNanos, kept)) : null;
        LatencyDistribution syncs = split ? LatencyDistribution.ofNanos(pick(allSyncNanos, kept)) : null;
        return new SyncCost(mode, plan.blockSize(), rounds, h, loopNanos, idleNanos, devices, slowest, median, writes, syncs,
                tally);
    }

    /** The indexes of the first {@code rounds} rounds that are not marked in {@code leftOut} (null: none are). */
    static int[] kept(int rounds, boolean[] leftOut) {
        int n = 0;
        for (int i = 0; i < rounds; i++) {
            n += leftOut != null && leftOut[i] ? 0 : 1;
        }
        int[] kept = new int[n];
        for (int i = 0, k = 0; i < rounds; i++) {
            if (leftOut == null || !leftOut[i]) {
                kept[k++] = i;
            }
        }
        return kept;
    }

    static long[] pick(long[] all, int[] indexes) {
        long[] out = new long[indexes.length];
        for (int k = 0; k < indexes.length; k++) {
            out[k] = all[indexes[k]];
        }
        return out;
    }

    static SlowRound slowRound(int i, long[] nanos, long[] flushes, long[] kib) {
        return new SlowRound(i, nanos[i], flushes == null ? -1 : flushes[i], kib == null ? -1 : kib[i]);
    }
}

package io.flushcheck.probe;

import io.flushcheck.storage.DeviceStat;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * A mode's measured rounds: in stretches with idle windows between them, each sync bracketed ({@link #measure}).
 */
final class StretchLoop {

    /** The syncing stretch between two idle windows: long enough to hold rounds, short enough to interleave. */
    static final long STRETCH_NANOS = 10_000_000L;
    /**
     * The rounds at the start of a stretch that follows an idle window left out of the latencies (see
     * {@link #measure}); a stretch keeps at least its last round.
     */
    static final int LEFT_OUT_AFTER_WINDOW = 2;

    private final DeviceCounters counters;

    StretchLoop(DeviceCounters counters) {
        this.counters = counters;
    }

    SyncCost measure(SyncMode mode, ProbePlan plan, Round round, ProbeListener listener) {
        return measure(mode, plan, round, null, listener, null);
    }

    /**
     * Runs the rounds in stretches of about {@link #STRETCH_NANOS}, each followed by an idle window in
     * which no sync of flushcheck's runs: what the devices do then is other processes' work, and their
     * rate there is taken off the flushes counted while syncing ({@link DeviceDelta#flushesCaused}).
     * Where the rounds write, the window makes the same writes without syncing them ({@code unsynced},
     * to a control file, as many as the stretch made in proportion to the window's length): writes
     * alone can make a busy device flush more (others' journal commits take them along), and only
     * what the syncs add to that is theirs. A window lasts a quarter of its stretch while the windows
     * see no flush, and as long as its stretch once one has: a busy device is sampled as long as it is
     * measured.
     *
     * <p>Each sync is also bracketed ({@link FlushBrackets}): how many flushes got all the way down the
     * chain (every level, the bottom's disks together) while it ran. The rest of each idle window is spent in idle brackets as long as the stretch's
     * syncs, one after another: how often other work alone meets a bracket of that length.
     *
     * <p>The first {@link #LEFT_OUT_AFTER_WINDOW} rounds after each idle window count for the verdict like any
     * other but are left out of the latencies ({@link SyncCost#latencyRounds()}), unless the stretch has no other:
     * a sync after a pause takes longer than one in a loop that does not pause, as fio's and etcd's do not. On the
     * virtio disk where it was measured, the first took 2.5 to 4 times the median of the later rounds and the second
     * 1.2 to 1.7 times, with tails 4 to 8 times theirs where each fdatasync commits the journal; a C loop's as much
     * as the probe's, whether it spins or sleeps through the pause ({@code cli/bench/sync-figures.sh -d} shows the
     * rounds by their place in their stretch). One such pair every 10 ms is about 2% of the rounds of a fast disk:
     * a p99 made of them.
     */
    SyncCost measure(SyncMode mode, ProbePlan plan, Round round, Round.Step unsynced, ProbeListener listener, StopRule stop) {
        FlushBrackets brackets = !counters.isEmpty() && mode.syncs() ? counters.brackets() : null;
        try {
            return measure(mode, plan, round, unsynced, listener, brackets, stop);
        } finally {
            if (brackets != null) {
                brackets.close();
            }
        }
    }

    private SyncCost measure(SyncMode mode, ProbePlan plan, Round round, Round.Step unsynced, ProbeListener listener,
                             FlushBrackets brackets, StopRule stop) {
        int rounds = plan.rounds();
        long[] nanos = new long[rounds];
        boolean split = round.split();
        long[] writeNanos = split ? new long[rounds] : null;
        long[] syncNanos = split ? new long[rounds] : null;
        Round.Step write = round.write();
        Round.Step sync = round.sync();
        boolean perRound = plan.perRoundCounters() && !counters.isEmpty();
        boolean idleWindows = !counters.isEmpty() && mode.syncs();
        long[] roundFlushes = perRound ? new long[rounds] : null;
        long[] roundKib = perRound ? new long[rounds] : null;
        // Often enough for a bar on a terminal to move; a listener that prints throttles itself.
        int step = Math.max(1, Math.min(100, rounds / 20));
        listener.progress(mode, 0, rounds);
        DeviceStat[] mark = counters.read();
        DeviceStat[] syncing = null;
        DeviceStat[] idle = null;
        long loopNanos = 0;
        long idleNanos = 0;
        boolean busy = false;
        long[] syncBracket = brackets == null ? null : new long[rounds];
        // The rounds right after an idle window, left out of the latencies (see above).
        boolean[] afterWindow = idleWindows ? new boolean[rounds] : null;
        long[] before = brackets == null ? null : brackets.newReading();
        long[] after = brackets == null ? null : brackets.newReading();
        boolean bracketsRead = brackets != null;
        int[] syncsMeeting = new int[FlushBrackets.Tally.DEPTH];
        int controls = 0;
        int[] controlsMeeting = new int[FlushBrackets.Tally.DEPTH];
        int ran = rounds;
        try {
            int i = 0;
            int controlIndex = 0;
            while (i < rounds) {
                int stretchFirst = i;
                long stretchStart = System.nanoTime();
                do {
                    DeviceStat[] b = perRound ? counters.read() : null;
                    long t0 = System.nanoTime();
                    if (split) {
                        write.run(i);
                        long t1 = System.nanoTime();
                        bracketsRead &= brackets == null || brackets.read(before);
                        long s0 = System.nanoTime();
                        sync.run(i);
                        long t2 = System.nanoTime();
                        bracketsRead &= brackets == null || brackets.read(after);
                        // The bracket's readings are left out of the round's times.
                        writeNanos[i] = t1 - t0;
                        syncNanos[i] = t2 - s0;
                        nanos[i] = writeNanos[i] + syncNanos[i];
                        if (brackets != null) {
                            syncBracket[i] = syncNanos[i];
                        }
                    } else {
                        bracketsRead &= brackets == null || brackets.read(before);
                        long s0 = System.nanoTime();
                        (write != null ? write : sync).run(i);
                        long t1 = System.nanoTime();
                        bracketsRead &= brackets == null || brackets.read(after);
                        nanos[i] = t1 - s0;
                        if (brackets != null) {
                            syncBracket[i] = nanos[i];
                        }
                    }
                    if (brackets != null) {
                        FlushBrackets.Tally.count(brackets.flushesDown(before, after), syncsMeeting);
                    }
                    if (perRound) {
                        long[] d = counters.terminalDelta(b, counters.read());
                        roundFlushes[i] = d[0];
                        roundKib[i] = d[1];
                    }
                    if ((i + 1) % step == 0 && i + 1 < rounds) {
                        listener.progress(mode, i + 1, rounds);
                    }
                    i++;
                } while (i < rounds && System.nanoTime() - stretchStart < STRETCH_NANOS);
                if (afterWindow != null && stretchFirst > 0) {
                    // After a window: its first rounds, but never all of them (a round of 10 ms or more is a stretch
                    // of its own, and every such round follows a window).
                    int leftOut = Math.min(LEFT_OUT_AFTER_WINDOW, i - stretchFirst - 1);
                    Arrays.fill(afterWindow, stretchFirst, stretchFirst + leftOut, true);
                }
                long stretch = System.nanoTime() - stretchStart;
                loopNanos += stretch;
                DeviceStat[] stretchEnd = counters.read();
                syncing = counters.add(syncing, mark, stretchEnd);
                mark = stretchEnd;
                if (idleWindows) {
                    long idleStart = System.nanoTime();
                    long want = busy ? stretch : stretch / 4;
                    int made = i - stretchFirst;
                    int writes = unsynced == null ? 0 : busy ? made : (made + 3) / 4;
                    for (int w = 0; w < writes && System.nanoTime() - idleStart < want; w++) {
                        unsynced.run(controlIndex++);
                    }
                    if (brackets != null) {
                        // Idle brackets as long as this stretch's syncs, in turn, while the window lasts.
                        for (int k = stretchFirst; bracketsRead; k = k + 1 < i ? k + 1 : stretchFirst) {
                            long length = syncBracket[k];
                            if (want - (System.nanoTime() - idleStart) < length) {
                                break;
                            }
                            bracketsRead &= brackets.read(before);
                            spin(length);
                            bracketsRead &= brackets.read(after);
                            controls++;
                            FlushBrackets.Tally.count(brackets.flushesDown(before, after), controlsMeeting);
                        }
                    }
                    for (long left = want - (System.nanoTime() - idleStart); left > 0;
                            left = want - (System.nanoTime() - idleStart)) {
                        LockSupport.parkNanos(left);
                    }
                    DeviceStat[] idleEnd = counters.read();
                    idleNanos += System.nanoTime() - idleStart;
                    busy |= counters.anyFlush(mark, idleEnd);
                    idle = counters.add(idle, mark, idleEnd);
                    mark = idleEnd;
                    // Looked at only once the window has sampled other work: the brackets' rule needs it.
                    if (stop != null && i < rounds && bracketsRead && stop.decided(CostOfRounds.cost(counters, mode, plan, i,
                            nanos, writeNanos, syncNanos, afterWindow, roundFlushes, roundKib, loopNanos, idleNanos, syncing,
                            idle, FlushBrackets.Tally.of(i, syncsMeeting, controls, controlsMeeting)), rounds)) {
                        ran = i;
                        break;
                    }
                }
            }
        } catch (IOException e) {
            throw new NativeCallException(mode.id(), 0, ProbeFiles.describe(e));
        }
        listener.progress(mode, rounds, rounds);
        FlushBrackets.Tally tally = brackets != null && bracketsRead && idleWindows
                ? FlushBrackets.Tally.of(ran, syncsMeeting, controls, controlsMeeting) : null;
        return CostOfRounds.cost(counters, mode, plan, ran, nanos, writeNanos, syncNanos, afterWindow, roundFlushes,
                roundKib, loopNanos, idleNanos, syncing, idle, tally);
    }

    /**
     * Spins for {@code nanos}: an idle bracket as long as a sync. Its own method, so that the JIT compiles these few
     * bytes on their own once the spinning makes them hot, rather than the whole of {@code measure} while its rounds
     * run (on two cores, compiling competes with the rounds for the CPUs).
     */
    private static void spin(long nanos) {
        long c0 = System.nanoTime();
        while (System.nanoTime() - c0 < nanos) {
            Thread.onSpinWait();
        }
    }
}

package io.flushcheck.cli.powercut;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Where one cut of {@code flushcheck powercut} falls, counted in the command's flushes from its start: after its
 * k-th flush completes (what every flush up to k made durable survives), during its k-th flush (what flush k-1 made
 * durable survives, with a subset of the sectors written since drawn from the cut's seed: a drive may have written
 * any of them when its power went), or at its exit (what its last flush made durable, with a subset of what came
 * after). The windows between flushes, where a program has acknowledged and not yet synced what goes with the
 * acknowledgement, are reached by the last two.
 *
 * @param kind  after a flush, during one, or at the command's exit
 * @param flush the flush; for the exit, one beyond the command's last (its flush count + 1) when known, else 0
 */
record CutPoint(Kind kind, long flush) {

    enum Kind { AFTER, DURING, EXIT }

    static CutPoint after(long k) {
        return new CutPoint(Kind.AFTER, k);
    }

    static CutPoint during(long k) {
        return new CutPoint(Kind.DURING, k);
    }

    static CutPoint exit(long flushes) {
        return new CutPoint(Kind.EXIT, flushes + 1);
    }

    /**
     * The points of {@code --at-random}'s {@code n} cuts over a command of {@code flushes} flushes: the first at its
     * exit, which every run includes; each other, by its seed, after or during one of its flushes, each of the
     * 2·F points as likely.
     */
    static List<CutPoint> atRandom(long[] seeds, long flushes) {
        List<CutPoint> points = new ArrayList<>();
        for (int i = 0; i < seeds.length; i++) {
            if (i == 0 || flushes == 0) {
                points.add(exit(flushes));
                continue;
            }
            long at = new SplittableRandom(seeds[i]).nextLong(2 * flushes);
            points.add(at < flushes ? after(at + 1) : during(at - flushes + 1));
        }
        return points;
    }

    /** Every point of {@code --sweep}: the exit, then after and during each flush, in order. */
    static List<CutPoint> sweep(long flushes) {
        List<CutPoint> points = new ArrayList<>();
        points.add(exit(flushes));
        for (long k = 1; k <= flushes; k++) {
            points.add(after(k));
            points.add(during(k));
        }
        return points;
    }

    /** In words: {@code after flush 3}, {@code during flush 3}, {@code exit}. */
    @Override
    public String toString() {
        return switch (kind) {
            case AFTER -> "after flush " + flush;
            case DURING -> "during flush " + flush;
            case EXIT -> "exit";
        };
    }
}

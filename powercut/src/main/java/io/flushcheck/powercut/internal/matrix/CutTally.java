package io.flushcheck.powercut.internal.matrix;

import org.apiguardian.api.API;

/**
 * One row of a power-cut matrix, tallied cut by cut: the commits acknowledged before the cuts, those missing after,
 * the cuts that lost any, the most one cut lost, and the cuts whose survivor was whole (a database that passed its
 * integrity check, a server that recovered).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CutTally {

    private int cuts;
    private long acknowledged;
    private long lost;
    private int cutsThatLost;
    private long maxLostInOneCut;
    private int whole;

    /**
     * Counts one cut: {@code acknowledged} commits had returned before it, {@code survived} of them were found after
     * it, and its survivor was {@code whole} or not.
     */
    public void add(long acknowledged, long survived, boolean whole) {
        long missing = acknowledged - survived;
        this.cuts++;
        this.acknowledged += acknowledged;
        this.lost += missing;
        this.maxLostInOneCut = Math.max(this.maxLostInOneCut, missing);
        this.cutsThatLost += missing > 0 ? 1 : 0;
        this.whole += whole ? 1 : 0;
    }

    public int cuts() {
        return cuts;
    }

    public long acknowledged() {
        return acknowledged;
    }

    public long lost() {
        return lost;
    }

    public int cutsThatLost() {
        return cutsThatLost;
    }

    public long maxLostInOneCut() {
        return maxLostInOneCut;
    }

    /** The cuts whose survivor was whole. */
    public int whole() {
        return whole;
    }

    /** The cuts whose survivor was not whole. */
    public int broken() {
        return cuts - whole;
    }
}

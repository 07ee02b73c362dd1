package io.flushcheck.powercut.internal.model;

import java.util.function.LongConsumer;
import org.apiguardian.api.API;

/**
 * A model's power, counted in flushes: how many completed, the cut armed at or during a flush, the flushes
 * planned to fail, and whether the power is gone. Both models ({@code SectorStore}, {@code FileTree}) run their
 * flushes through it and keep only what a flush makes durable, and what a cut keeps, to themselves.
 * Not thread-safe: its owner locks.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PowerSwitch {

    /** What {@link #arrive} says of a flush the model is to carry out. */
    public static final int CARRY_OUT = -1;

    private final FlushFaults faults = new FlushFaults();
    private long flushes;
    private boolean frozen;
    private long cutAtFlush = -1;
    private Runnable atCut;
    private Runnable onFreeze = () -> { };
    private LongConsumer completing = k -> { };
    private long cutDuringFlush = -1;
    private long duringSeed;
    private boolean cutDuring;

    /** Flushes completed so far. */
    public long flushes() {
        return flushes;
    }

    /** True once the power is gone. */
    public boolean frozen() {
        return frozen;
    }

    /** True when the power went at an armed flush ({@link #cutAtFlush}, {@link #cutDuringFlush}), not by a call. */
    public boolean armedCutHappened() {
        return frozen && (cutDuring || cutAtArmedFlush());
    }

    /** True when the power went the moment the flush armed by {@link #cutAtFlush} completed. */
    public boolean cutAtArmedFlush() {
        return frozen && cutAtFlush > 0 && flushes == cutAtFlush;
    }

    /** Throws when the power is gone already: a second cut has nothing to cut. */
    public void requirePower() {
        if (frozen) {
            throw new IllegalStateException("the power is already cut");
        }
    }

    /** Runs {@code action} the moment the power goes, however it goes, before a flush the cut interrupts returns. */
    public void whenFrozen(Runnable action) {
        onFreeze = action;
    }

    /**
     * Runs {@code action} with each flush's number as it completes, before it counts ({@link #flushes()} is one less)
     * and before whatever waits for it learns that it completed: what it reads then was there before the flush
     * counted. One action at a time; null for none.
     */
    public void whenCompleting(LongConsumer action) {
        completing = action == null ? k -> { } : action;
    }

    /** Cuts the power the moment the {@code k}-th flush completes, running {@code atCut} (may be null) first. */
    public void cutAtFlush(long k, Runnable atCut) {
        armCheck(k);
        cutAtFlush = k;
        this.atCut = atCut;
        cutDuringFlush = -1;
    }

    /** Cuts the power as the {@code k}-th flush arrives, the model keeping a subset drawn from {@code seed}. */
    public void cutDuringFlush(long k, long seed) {
        armCheck(k);
        cutDuringFlush = k;
        duringSeed = seed;
        cutAtFlush = -1;
    }

    private void armCheck(long k) {
        requirePower();
        if (k <= flushes) {
            throw new IllegalArgumentException("flush " + k + " has already happened (" + flushes + " so far)");
        }
    }

    /** Fails flushes with the power on, as {@link PowerLossModel#failFlushesAfter} says. */
    public void failFlushesAfter(long k, boolean persistent, int errno) {
        faults.failAfter(k, persistent, errno);
    }

    /** Flushes failed so far by {@link #failFlushesAfter}. */
    public long failedFlushes() {
        return faults.failed();
    }

    /**
     * A flush arrives: {@link #CARRY_OUT} when the model is to make what it covers durable and then call
     * {@link #completed}; else what the flush returns, done nothing: 0 after a cut made by a call (the workload
     * is over and its last flushes pass), EIO after an armed cut, a planned errno, or EIO when the power goes
     * now, as armed by {@link #cutDuringFlush}: {@code cutModel} cuts the model with the seed armed, after
     * {@link #freeze}.
     */
    public int arrive(LongConsumer cutModel) {
        if (frozen) {
            return armedCutHappened() ? PowerLossModel.EIO : 0;
        }
        int failure = faults.failsNow(flushes);
        if (failure != 0) {
            return failure;
        }
        if (flushes + 1 == cutDuringFlush) {
            cutModel.accept(duringSeed);
            cutDuring = true;
            return PowerLossModel.EIO;
        }
        return CARRY_OUT;
    }

    /** The flush {@link #arrive} let through completed; if it is the armed one, the power goes now. */
    public void completed() {
        completed(k -> { });
    }

    /**
     * As {@link #completed()}, telling {@code counted} the flush's number first: a recording notes the flush
     * before an armed cut at it ends the workload.
     */
    public void completed(LongConsumer counted) {
        completing.accept(flushes + 1);
        flushes++;
        counted.accept(flushes);
        if (flushes == cutAtFlush) {
            frozen = true;
            if (atCut != null) {
                // Before the flush is reported done: whatever waits for it never learns that it completed.
                atCut.run();
            }
            onFreeze.run();
        }
    }

    /** The power goes now: {@link #whenFrozen}'s action runs; the model then works out what survived. */
    public void freeze() {
        frozen = true;
        onFreeze.run();
    }
}

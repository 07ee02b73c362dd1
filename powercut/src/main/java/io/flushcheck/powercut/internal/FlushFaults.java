package io.flushcheck.powercut.internal;

/**
 * Which flushes fail with the power on ({@link PowerLossModel#failFlushesAfter}), for either model: once
 * {@code k} have completed, the next fails, and every one after it when persistent. Not thread-safe: its
 * model calls it under its own lock.
 */
final class FlushFaults {

    private long after = -1;
    private boolean persistent;
    private long failed;

    void failAfter(long k, boolean persistent) {
        if (k < 0) {
            throw new IllegalArgumentException("flushes are counted from 0, not " + k);
        }
        this.after = k;
        this.persistent = persistent;
    }

    /** Whether the flush arriving now, {@code completed} having completed before it, fails; counts it when it does. */
    boolean failsNow(long completed) {
        if (after < 0 || completed < after) {
            return false;
        }
        failed++;
        if (!persistent) {
            after = -1;
        }
        return true;
    }

    long failed() {
        return failed;
    }
}

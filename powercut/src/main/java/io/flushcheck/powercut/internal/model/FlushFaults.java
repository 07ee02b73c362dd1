package io.flushcheck.powercut.internal.model;

import org.apiguardian.api.API;
/**
 * Which flushes fail with the power on ({@link PowerLossModel#failFlushesAfter}), for either model: once
 * {@code k} have completed, the next fails with the errno given, and every one after it when persistent. Not
 * thread-safe: its model calls it under its own lock.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FlushFaults {

    private long after = -1;
    private boolean persistent;
    private int errno;
    private long failed;

    public void failAfter(long k, boolean persistent, int errno) {
        if (k < 0) {
            throw new IllegalArgumentException("flushes are counted from 0, not " + k);
        }
        if (errno <= 0) {
            throw new IllegalArgumentException("an errno is positive, not " + errno);
        }
        this.after = k;
        this.persistent = persistent;
        this.errno = errno;
    }

    /**
     * The errno the flush arriving now fails with, {@code completed} having completed before it, or 0 when it
     * does not fail; counts it when it does.
     */
    public int failsNow(long completed) {
        if (after < 0 || completed < after) {
            return 0;
        }
        failed++;
        if (!persistent) {
            after = -1;
        }
        return errno;
    }

    public long failed() {
        return failed;
    }
}

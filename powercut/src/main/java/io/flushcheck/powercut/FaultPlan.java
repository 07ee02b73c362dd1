package io.flushcheck.powercut;

import org.apiguardian.api.API;

/**
 * Which of a simulated drive's flushes fail with the power on, and how ({@link SimulatedDisk#failFlushes}):
 * once {@code after} flushes have completed (counted from the disk's creation), the next fails with
 * {@code errno}, and with {@code persistent} every one after it too; without, the flush after the failed
 * one works again.
 *
 * <pre>{@code
 * disk.failFlushes(FaultPlan.flushesAfter(disk.flushes()).errno(Errno.ENOSPC).once());
 * }</pre>
 *
 * @param after      flushes that complete before the first one that fails; 0 or more
 * @param errno      what the drive answers a failed flush with
 * @param persistent whether every flush after the first failed one fails too
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record FaultPlan(long after, Errno errno, boolean persistent) {

    public FaultPlan {
        if (after < 0) {
            throw new IllegalArgumentException("flushes are counted from 0, not " + after);
        }
        if (errno == null) {
            throw new IllegalArgumentException("a failing flush needs an errno");
        }
    }

    /** Every flush after the first {@code k} fails with EIO. */
    public static FaultPlan flushesAfter(long k) {
        return new FaultPlan(k, Errno.EIO, true);
    }

    /** This plan, failing with {@code e}. */
    public FaultPlan errno(Errno e) {
        return new FaultPlan(after, e, persistent);
    }

    /** This plan, failing only the first flush it reaches. */
    public FaultPlan once() {
        return new FaultPlan(after, errno, false);
    }

    /** This plan, failing the first flush it reaches and every one after. */
    public FaultPlan persistently() {
        return new FaultPlan(after, errno, true);
    }

    @Override
    public String toString() {
        return "flushes after " + after + " fail with " + errno + (persistent ? ", every one" : ", once");
    }
}

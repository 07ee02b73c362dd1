package io.flushcheck.powercut;

/**
 * One invocation's fault of {@link FailingSyncs}: the flush of the test method that fails first (after
 * {@code after} have completed), or none (the sweep's counting invocation).
 */
record FaultPoint(Long after, Errno errno, boolean persistent) {

    static FaultPoint none() {
        return new FaultPoint(null, Errno.EIO, true);
    }

    boolean failing() {
        return after != null;
    }

    /** Arms it on {@code disk}, {@code base} flushes having completed before the test method. */
    void arm(SimulatedDisk disk, long base) {
        if (failing()) {
            disk.failFlushes(new FaultPlan(base + after, errno, persistent));
        }
    }

    /** In words, {@code n} being the workload's flushes (-1: not known). */
    String describe(long n) {
        if (!failing()) {
            return "no failing flush" + (n >= 0 ? " (the workload makes " + n + " flushes)" : ", counting the workload's flushes");
        }
        return "flush " + (after + 1) + (n >= 0 ? " of " + n : "") + " fails with " + errno
                + (persistent ? ", and every one after" : ", once");
    }

    /** How to run only this invocation. */
    String repeat() {
        return "@FailingSyncs(after = " + after + ", errno = Errno." + errno + ", persistent = " + persistent + "), or -D"
                + FailingSyncs.AFTER_PARAMETER + "=" + after + " with only this test selected";
    }
}

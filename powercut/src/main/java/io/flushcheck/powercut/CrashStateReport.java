package io.flushcheck.powercut;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What {@link CrashStates#check} found: the crash states it checked, those that failed (smallest first:
 * fewest writes lost), the duplicates it checked once and the states its bound left out.
 *
 * @param checked the states mounted and verified
 * @param failures the states that failed, fewest writes lost first
 * @param duplicates states that left the same image as one checked, not checked again
 * @param leftOut distinct states beyond the bound, not checked
 * @param maxStates the bound
 * @param seconds how long the checking took, images, mounts and verification included
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CrashStateReport(int checked, List<Failure> failures, int duplicates, int leftOut, int maxStates,
                               double seconds) {

    /**
     * A crash state whose verification failed.
     *
     * @param state what the state kept and lost, as {@link CrashStates} says it
     * @param lost the writes of its epoch that did not survive whole
     * @param message what the verification (or the mount) said
     * @param cause what it threw
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Failure(String state, int lost, String message, Throwable cause) {
    }

    public CrashStateReport {
        failures = List.copyOf(failures);
    }

    /** The states that failed. */
    public int failing() {
        return failures.size();
    }

    /** Passes when no state failed; otherwise fails naming the smallest failing state and what it dropped. */
    public void assertPassed() {
        if (failures.isEmpty()) {
            return;
        }
        Failure first = failures.get(0);
        AssertionError e = new AssertionError(failing() + " of " + checked + " crash states failed ("
                + boundNote() + "); the smallest, " + first.state() + ": " + first.message());
        if (first.cause() != null) {
            e.initCause(first.cause());
        }
        throw e;
    }

    private String boundNote() {
        return (leftOut == 0 ? "none left out" : leftOut + " more left out by the bound of " + maxStates)
                + (duplicates == 0 ? "" : ", " + duplicates + " duplicates checked once");
    }

    @Override
    public String toString() {
        return checked + " crash states checked in " + String.format("%.1f", seconds) + " s, " + failing() + " failing ("
                + boundNote() + ")";
    }
}

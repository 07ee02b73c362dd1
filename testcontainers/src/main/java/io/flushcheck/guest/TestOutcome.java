package io.flushcheck.guest;

import io.flushcheck.report.Json;
import org.apiguardian.api.API;

/**
 * One test's outcome in an environment, as it travels from the guest to the host.
 *
 * @param id             the JUnit unique id
 * @param className      the test class, or null for a container-level entry (JSON {@code class})
 * @param displayName    what reports show
 * @param status         how it ended
 * @param message        the failure, abort or skip reason (first line of the throwable), else null
 * @param durationMillis time from start to finish
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record TestOutcome(String id, @Json.Name("class") String className, String displayName, Status status,
                          String message, long durationMillis) {

    /** How a test ended, in the JUnit Platform's words; {@code SKIPPED} is a disabled test. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public enum Status {
        SUCCESSFUL, FAILED, ABORTED, SKIPPED
    }

    public boolean failed() {
        return status == Status.FAILED;
    }

    /** {@code MyTests.durable()} or the display name. */
    public String label() {
        String cls = className == null ? "" : className.substring(className.lastIndexOf('.') + 1) + ".";
        return cls + displayName;
    }
}

package io.flushcheck.guest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One test's outcome in an environment, as it travels from the guest to the host.
 *
 * @param id             the JUnit unique id
 * @param className      the test class, or null for a container-level entry
 * @param displayName    what reports show
 * @param status         SUCCESSFUL, FAILED, ABORTED (an assumption did not hold) or SKIPPED (disabled)
 * @param message        the failure, abort or skip reason (first line of the throwable), else null
 * @param durationMillis time from start to finish
 */
public record TestOutcome(String id, String className, String displayName, String status, String message,
                          long durationMillis) {

    public boolean failed() {
        return "FAILED".equals(status);
    }

    /** {@code MyTests.durable()} or the display name. */
    public String label() {
        String cls = className == null ? "" : className.substring(className.lastIndexOf('.') + 1) + ".";
        return cls + displayName;
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("class", className);
        m.put("displayName", displayName);
        m.put("status", status);
        m.put("message", message);
        m.put("durationMillis", durationMillis);
        return m;
    }

    static TestOutcome fromMap(Map<String, Object> m) {
        return new TestOutcome((String) m.get("id"), (String) m.get("class"), (String) m.get("displayName"),
                (String) m.get("status"), (String) m.get("message"),
                m.get("durationMillis") instanceof Number n ? n.longValue() : 0);
    }
}

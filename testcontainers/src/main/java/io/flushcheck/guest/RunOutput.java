package io.flushcheck.guest;

import org.apiguardian.api.API;

/**
 * What came back from one run, before it is read: the result document {@link GuestMain} wrote (null when none
 * came back), the exit code of the JVM that ran it, and what it and the place around it printed.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public record RunOutput(String json, int exitCode, String log) {
}

package io.flushcheck.powercut;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * A directory given to {@link CrashStates#load} does not hold a whole recording as {@link CrashStates#save} kept
 * it: no manifest, a manifest this version does not read, or a file missing, cut short or changed since (its
 * SHA-256 is not the one saved). The recording must be copied again; nothing on this machine is at fault.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class UnreadableRecordingException extends IOException {

    private static final long serialVersionUID = 1L;

    UnreadableRecordingException(String message) {
        super(message);
    }

    UnreadableRecordingException(String message, Throwable cause) {
        super(message, cause);
    }
}

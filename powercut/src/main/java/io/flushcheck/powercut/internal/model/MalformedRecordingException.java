package io.flushcheck.powercut.internal.model;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * A recording's log that does not read as one: not a log of this model, a record this version does not know, one
 * cut short, or a change that does not play again. What the file holds is at fault, not the machine reading it:
 * {@code CrashStates.load} reports it as the recording's ({@code UnreadableRecordingException}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class MalformedRecordingException extends IOException {

    private static final long serialVersionUID = 1L;

    public MalformedRecordingException(String message) {
        super(message);
    }

    public MalformedRecordingException(String message, Throwable cause) {
        super(message, cause);
    }
}

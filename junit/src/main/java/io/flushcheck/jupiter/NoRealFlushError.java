package io.flushcheck.jupiter;

import io.flushcheck.CheckResult;
import org.apiguardian.api.API;

/** Fails a {@link RequiresRealFlush} test; the message carries the evidence, {@link #result()} all of it. */
@API(status = API.Status.STABLE, since = "0.1")
public final class NoRealFlushError extends AssertionError {

    private static final long serialVersionUID = 1L;

    private final transient CheckResult result;

    NoRealFlushError(String message, CheckResult result) {
        super(message);
        this.result = result;
    }

    /** The check that failed the test. */
    public CheckResult result() {
        return result;
    }
}

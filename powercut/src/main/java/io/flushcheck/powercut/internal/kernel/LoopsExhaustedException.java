package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import org.apiguardian.api.API;

/** Every loop device is in use: the message names them and their files ({@link LoopPool#explain}). */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LoopsExhaustedException extends IOException {

    private static final long serialVersionUID = 1L;

    public LoopsExhaustedException(String message) {
        super(message);
    }
}

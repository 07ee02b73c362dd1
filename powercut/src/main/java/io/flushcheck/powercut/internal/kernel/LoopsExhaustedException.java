package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * A disk could not be made or cut because every loop device is in use, said once the pool was looked at: the message
 * names the devices and their files ({@link LoopPool#explain}). The kernel's own refusal of one attach is
 * {@link LoopDevices.NoFreeLoopDevice}, which a caller may wait out; this one reaches the disk's user.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LoopsExhaustedException extends IOException {

    private static final long serialVersionUID = 1L;

    public LoopsExhaustedException(String message) {
        super(message);
    }
}

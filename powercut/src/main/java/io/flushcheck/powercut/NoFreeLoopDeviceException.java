package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.kernel.LoopsExhaustedException;
import java.io.IOException;
import org.apiguardian.api.API;

/**
 * No loop device was free for a {@link SimulatedDisk}: every one the kernel has is in use, and it made no
 * new one. The message says how many exist, which are in use and by which backing files.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class NoFreeLoopDeviceException extends IOException {

    private static final long serialVersionUID = 1L;

    public NoFreeLoopDeviceException(String message) {
        super(message);
    }

    /** The loop devices found all in use, as a disk's user is told it: {@code e}'s message. */
    static NoFreeLoopDeviceException of(LoopsExhaustedException e) {
        NoFreeLoopDeviceException face = new NoFreeLoopDeviceException(e.getMessage());
        face.initCause(e);
        return face;
    }
}

package io.flushcheck.powercut;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * The simulated drive's server failed: its process died (killed, out of memory, crashed) or it can no
 * longer serve the disk (its store could not be written). Nothing the disk reports after that can be
 * trusted, so a {@link SimulatedDisk} throws this (inside an {@link java.io.UncheckedIOException} where its
 * method throws no checked exception) from its next command, {@link SimulatedDisk#cutPower()} included:
 * a cut never passes on a dead drive. The message names the death and the server's last lines on stderr.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class DriveServerFailedException extends IOException {

    private static final long serialVersionUID = 1L;

    DriveServerFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}

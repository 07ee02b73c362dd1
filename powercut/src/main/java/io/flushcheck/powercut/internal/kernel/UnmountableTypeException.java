package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import org.apiguardian.api.API;

/**
 * The kernel has no filesystem of the type asked for ({@code mount(2)}'s ENODEV: its module is absent): a fault of
 * the machine, the same for every image of that type, not of the image being mounted.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class UnmountableTypeException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String type;

    public UnmountableTypeException(String type, String message) {
        super(message);
        this.type = type;
    }

    /** The filesystem type the kernel lacks. */
    public String type() {
        return type;
    }
}

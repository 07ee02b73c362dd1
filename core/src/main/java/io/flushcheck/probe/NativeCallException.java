package io.flushcheck.probe;

import org.apiguardian.api.API;

/** A system call failed; carries the call, errno and the C library's description. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class NativeCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int errno;

    /** @param errno the C library's errno, or 0 where the failure came without one (Java I/O) */
    public NativeCallException(String call, int errno, String description) {
        super(call + " failed: " + description + (errno > 0 ? " (errno " + errno + ")" : ""));
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}

package io.flushcheck.vm;

import org.apiguardian.api.API;

/** A VM guest cannot run here: QEMU, the kernel package or a tool is missing, or root is needed. One sentence. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public final class VmUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public VmUnavailableException(String message) {
        super(message);
    }

    public VmUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

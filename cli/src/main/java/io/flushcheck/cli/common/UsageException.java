package io.flushcheck.cli.common;

import org.apiguardian.api.API;

/** Bad command-line input: the message is the one line the user sees, exit code 2. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}

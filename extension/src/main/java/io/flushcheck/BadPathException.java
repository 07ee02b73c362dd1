package io.flushcheck;

/** A path that cannot be checked at all (missing, not a directory); the message says which. */
public final class BadPathException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public BadPathException(String message) {
        super(message);
    }
}

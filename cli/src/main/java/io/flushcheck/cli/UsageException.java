package io.flushcheck.cli;

/** Bad command-line input: the message is the one line the user sees, exit code 2. */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}

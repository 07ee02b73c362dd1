package io.flushcheck.cli;

/** The command's exit codes; documented in the README and in {@code --help}. */
public final class ExitCodes {

    /** Every path was checked (and, with {@code --require-real-flush}, every one is REAL_FLUSH). */
    public static final int OK = 0;
    /** {@code --require-real-flush}: at least one path is NO_REAL_FLUSH or UNKNOWN. */
    public static final int NOT_REAL_FLUSH = 1;
    /** Bad usage or a path that cannot be checked (missing, not a directory). Nothing was written. */
    public static final int USAGE = 2;
    /** An unexpected internal error; the message says what, and a bug report should carry it. */
    public static final int INTERNAL = 3;

    private ExitCodes() {
    }
}

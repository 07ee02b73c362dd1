package io.flushcheck.cli.common;

import org.apiguardian.api.API;

/** The command's exit codes; documented in the README and in {@code --help}. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ExitCodes {

    /** Every path was checked (and, with {@code --require-real-flush}, every one is REAL_FLUSH). */
    public static final int OK = 0;
    /** {@code --require-real-flush}: at least one path is NO_REAL_FLUSH or UNKNOWN. */
    public static final int NOT_REAL_FLUSH = 1;
    /** {@code powercut}: the verify failed after at least one cut (or a survivor would not mount). */
    public static final int VERIFY_FAILED = 1;
    /**
     * Bad usage or a path that cannot be used (missing, not a directory, unreachable, empty, not
     * representable in the locale's encoding): one line on stderr with the cause. Nothing was written.
     */
    public static final int USAGE = 2;
    /**
     * An unexpected internal error, or what the machine lacks or could not do (a disk not made, a filesystem its
     * kernel cannot mount; {@code powercut --explore}: a COMMAND still running after {@code --timeout} with the
     * power on); the message says what, and a bug report should carry it.
     */
    public static final int INTERNAL = 3;
    /**
     * The results could not be written to standard output (a full disk, a closed descriptor, a broken
     * pipe): one line on stderr says why. Wins over 0 and 1, whose results are lost.
     */
    public static final int OUTPUT = 4;

    private ExitCodes() {
    }
}

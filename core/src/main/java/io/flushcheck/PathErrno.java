package io.flushcheck;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;
import io.flushcheck.storage.CLibrary;

/**
 * The errno that {@code access(path, F_OK)} gets: why a path cannot be reached, as the kernel says it.
 * Java's exceptions carry only the C library's text, translated into the user's language; errno is not.
 * Used on the error path only (a bad path), never on the way to a verdict.
 */
final class PathErrno {

    static final int UNAVAILABLE = -1;

    static final int ENOENT = 2;
    static final int EACCES = 13;
    static final int ENOTDIR = 20;
    /** 36 on Linux, 63 on macOS. */
    static final int ENAMETOOLONG = Platform.isMac() ? 63 : 36;
    /** 40 on Linux, 62 on macOS. */
    static final int ELOOP = Platform.isMac() ? 62 : 40;

    private static final int F_OK = 0;

    private PathErrno() {
    }

    /** 0 when the path can be reached, its errno when not, {@link #UNAVAILABLE} without native access. */
    static int of(String path) {
        if (!bind()) {
            return UNAVAILABLE;
        }
        try {
            CLibrary.access(path, F_OK);
            return 0;
        } catch (LastErrorException e) {
            return e.getErrorCode();
        } catch (RuntimeException | LinkageError e) {
            return UNAVAILABLE;
        }
    }

    /** The C library's description of errno, or "errno N". */
    static String describe(int errno) {
        try {
            if (bind()) {
                String s = CLibrary.strerror(errno);
                if (s != null && !s.isEmpty()) {
                    return s;
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // the number alone then
        }
        return "errno " + errno;
    }

    private static boolean bind() {
        return CLibrary.unavailable() == null;
    }
}

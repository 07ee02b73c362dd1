package io.flushcheck;

import io.flushcheck.text.Escape;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.apiguardian.api.API;

/**
 * A path that cannot be checked at all (missing, not a directory, unreachable); the message says which,
 * in one line.
 *
 * <p>The one place that turns "this path cannot be used" into its sentence, for the probe, the
 * {@code sqlite} command and its audit, and the JUnit extensions: {@link #unreachable} asks the
 * kernel why (errno of {@code access(2)}) rather than guessing from a {@code false} or from the C
 * library's translated text, so a symbolic link loop, an empty path, an over-long name and a missing
 * directory each get their own cause. Paths in the messages are shown with {@link #shown}: escaped,
 * and shortened when very long.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class BadPathException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** Paths longer than this are shown by their start and end in messages. */
    static final int SHOWN_MAX = 200;

    /** The suffix JDK's UnixException appends for ELOOP: Java's own words, in every language. */
    private static final String JDK_ELOOP_SUFFIX = " or unable to access attributes of symbolic link";

    public BadPathException(String message) {
        super(message);
    }

    private BadPathException(String message, Throwable cause) {
        super(message, cause);
    }

    /** An empty path: Java reads it as the working directory, but nobody means that by {@code ''}. */
    public static BadPathException empty() {
        return new BadPathException("empty path: name a directory ('.' for the working directory)");
    }

    /**
     * Why {@code path} cannot be reached, as the kernel says it: missing, permission denied, a symbolic
     * link loop, a name too long, a parent that is not a directory, a name that cannot be encoded.
     *
     * @param cause the Java exception that showed it, or null when only a {@code false} did
     */
    public static BadPathException unreachable(Path path, IOException cause) {
        String s = path.toString();
        if (s.isEmpty()) {
            return empty();
        }
        String shown = shown(s);
        int errno = PathErrno.of(s);
        String reason = null;
        if (errno == PathErrno.UNAVAILABLE || errno == 0) {
            // No native access (or the path became reachable meanwhile): read the cause from NIO.
            IOException e = cause != null ? cause : nioFailure(path);
            if (e instanceof NoSuchFileException) {
                errno = PathErrno.ENOENT;
            } else if (e instanceof AccessDeniedException) {
                errno = PathErrno.EACCES;
            } else if (e instanceof FileSystemException f && f.getReason() != null && f.getReason().endsWith(JDK_ELOOP_SUFFIX)) {
                errno = PathErrno.ELOOP;
            } else {
                reason = e == null ? "it cannot be resolved" : e instanceof FileSystemException f && f.getReason() != null
                        ? f.getReason() : String.valueOf(e.getMessage());
            }
        }
        if (reason != null) {
            return new BadPathException("cannot reach " + shown + ": " + Escape.of(reason), cause);
        }
        String message;
        if (errno == PathErrno.ENOENT) {
            message = missing(path, s, shown);
        } else if (errno == PathErrno.EACCES) {
            message = "cannot reach " + shown + ": permission denied on it or a parent directory";
        } else if (errno == PathErrno.ELOOP) {
            message = "cannot reach " + shown + ": too many levels of symbolic links (a symbolic link loop in it or a"
                    + " parent directory)";
        } else if (errno == PathErrno.ENAMETOOLONG) {
            message = "cannot reach " + shown + ": file name too long (" + s.getBytes(jnuCharset()).length + " bytes; the"
                    + " system takes names of up to 255 bytes and paths of up to 4095)";
        } else if (errno == PathErrno.ENOTDIR) {
            message = "cannot reach " + shown + ": a parent of it is not a directory";
        } else {
            message = "cannot reach " + shown + ": " + Escape.of(PathErrno.describe(errno)) + " (errno " + errno + ")";
        }
        return new BadPathException(message, cause);
    }

    private static String missing(Path path, String s, String shown) {
        if (s.indexOf('\uFFFD') >= 0) {
            // The name had bytes the file name encoding cannot decode: Java replaced them, so the name it
            // passes to the system is another one, which does not exist. The real one may well.
            return unrepresentable(s, null);
        }
        if (!utf8() && s.indexOf('?') >= 0) {
            // Where Java decodes a name itself (the working directory) under an ASCII locale, it puts '?'
            // for every byte it cannot decode: the name it has is another one.
            return shown + " does not exist; if its name is not ASCII, this locale's encoding (" + jnuEncoding()
                    + ") cannot represent it: run with a UTF-8 locale, e.g. LC_ALL=C.UTF-8";
        }
        if (Files.isSymbolicLink(path)) {
            String target;
            try {
                target = shown(Files.readSymbolicLink(path).toString());
            } catch (IOException | UnsupportedOperationException e) {
                target = "?";
            }
            return shown + " is a symbolic link to " + target + ", which does not exist";
        }
        return shown + " does not exist";
    }

    /**
     * A path Java cannot represent in the file name encoding ({@code sun.jnu.encoding}, set by the locale
     * at JVM start and fixed afterwards): under {@code LC_ALL=C} that is ASCII, so any non-ASCII name.
     *
     * @param detail what Java said, used when the encoding is not the cause; may be null
     */
    public static String unrepresentable(String path, String detail) {
        String shown = shown(path);
        if (!utf8()) {
            return "cannot represent path '" + shown + "' in this locale's encoding (" + jnuEncoding()
                    + "): run with a UTF-8 locale, e.g. LC_ALL=C.UTF-8";
        }
        if (path.indexOf('\uFFFD') >= 0) {
            return "cannot represent path '" + shown + "' in this locale's encoding (UTF-8): its name holds bytes that"
                    + " are not valid UTF-8 (shown as \uFFFD), which Java cannot pass on; give it a UTF-8 name, or"
                    + " probe a bind mount of it at a UTF-8 path";
        }
        return "cannot use path '" + shown + "'" + (detail == null ? "" : ": " + Escape.of(detail));
    }

    /** The path as messages show it: control characters escaped, the middle of a very long one left out. */
    public static String shown(Object path) {
        String s = String.valueOf(path);
        if (s.length() > SHOWN_MAX) {
            s = s.substring(0, 100) + "..." + s.substring(s.length() - 40) + " (" + s.length() + " characters)";
        }
        return Escape.of(s);
    }

    private static IOException nioFailure(Path path) {
        try {
            Files.readAttributes(path, BasicFileAttributes.class);
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    /** The file name encoding as the JVM names it: ANSI_X3.4-1968 under LC_ALL=C. */
    private static String jnuEncoding() {
        return System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name());
    }

    private static boolean utf8() {
        return "UTF-8".equals(jnuCharset().name());
    }

    private static Charset jnuCharset() {
        try {
            return Charset.forName(jnuEncoding());
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }
}

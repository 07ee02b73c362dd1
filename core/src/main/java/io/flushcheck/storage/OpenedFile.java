package io.flushcheck.storage;

import com.sun.jna.LastErrorException;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import org.apiguardian.api.API;

/**
 * A regular file that anyone may have put there, opened once for reading without following a link and without
 * waiting: a symbolic link, a FIFO, a device or a directory in its place is refused, a device before it is opened
 * (opening one can do something: a tape rewinds), a FIFO without waiting for a writer. What is read from it afterwards
 * is that file's, whatever its name is changed to meanwhile: reading it again by name could read another file.
 * Linux (x86-64, arm64) and macOS; elsewhere, or without the C library, the type is checked by path just before the
 * file is opened, and a FIFO put in its place in between would be waited on.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OpenedFile implements AutoCloseable {

    private static final Flags FLAGS = Flags.forThisPlatform();
    private static final int ENOENT = 2;

    /** What stands at a path in place of a regular file. */
    public enum Kind {
        MISSING("missing"),
        SYMBOLIC_LINK("a symbolic link"),
        DIRECTORY("a directory"),
        /** A FIFO, a socket or a device. */
        OTHER("a FIFO, socket or device");

        private final String shown;

        Kind(String shown) {
            this.shown = shown;
        }

        static Kind of(BasicFileAttributes a) {
            return a.isSymbolicLink() ? SYMBOLIC_LINK : a.isDirectory() ? DIRECTORY : OTHER;
        }
    }

    /** The path is missing or is not a regular file of its own; the message says which. */
    public static final class NotRegularException extends IOException {
        private static final long serialVersionUID = 1L;

        private final Kind kind;

        NotRegularException(Path path, Kind kind) {
            super(path + (kind == Kind.MISSING ? " is missing" : " is not a regular file: " + kind.shown));
            this.kind = kind;
        }

        public Kind kind() {
            return kind;
        }

        /** What stands there, or for a missing file the C library's description of ENOENT. */
        public String reason() {
            if (kind != Kind.MISSING) {
                return kind.shown;
            }
            return CLibrary.unavailable() == null ? CLibrary.strerror(ENOENT) : "No such file or directory";
        }
    }

    /** open(2) refused the file for another reason (permissions, I/O); the message is {@code cannot open PATH: REASON}. */
    public static final class OpenFailedException extends IOException {
        private static final long serialVersionUID = 1L;

        private final String reason;

        OpenFailedException(Path path, String reason) {
            super("cannot open " + path + ": " + reason);
            this.reason = reason;
        }

        /** The C library's description of the errno. */
        public String reason() {
            return reason;
        }
    }

    private final Path path;
    private final int fd;
    private final FileChannel channel;

    private OpenedFile(Path path, int fd, FileChannel channel) {
        this.path = path;
        this.fd = fd;
        this.channel = channel;
    }

    /**
     * Opens {@code path}, which must be a regular file itself, not a link to one.
     *
     * @throws NotRegularException  when it is missing or not a regular file
     * @throws OpenFailedException when open(2) refuses it for another reason
     * @throws IOException          when it cannot be read for another reason
     */
    public static OpenedFile open(Path path) throws IOException {
        BasicFileAttributes named;
        try {
            named = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw new NotRegularException(path, Kind.MISSING);
        } catch (IOException e) {
            named = null; // open(2) below says why, with the kernel's reason
        }
        if (named != null && !named.isRegularFile()) {
            throw new NotRegularException(path, Kind.of(named));
        }
        if (FLAGS == null || CLibrary.unavailable() != null) {
            return new OpenedFile(path, -1, FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
        }
        int fd;
        try {
            // O_NONBLOCK: a FIFO put in its place since opens at once, to be refused by the descriptor's type below.
            fd = CLibrary.open(path.toString(), FLAGS.nofollow | FLAGS.nonblock | FLAGS.cloexec, 0);
        } catch (LastErrorException e) {
            int errno = e.getErrorCode();
            if (errno == ENOENT || errno == FLAGS.eloop) {
                throw new NotRegularException(path, errno == ENOENT ? Kind.MISSING : Kind.SYMBOLIC_LINK);
            }
            throw new OpenFailedException(path, CLibrary.strerror(errno));
        }
        try {
            // The descriptor's own file, as /proc/self/fd or /dev/fd names it: the one opened, whatever the path
            // names by now.
            Path held = Path.of(FLAGS.descriptors + fd);
            BasicFileAttributes opened = Files.readAttributes(held, BasicFileAttributes.class);
            if (!opened.isRegularFile()) {
                throw new NotRegularException(path, Kind.of(opened));
            }
            return new OpenedFile(path, fd, FileChannel.open(held, StandardOpenOption.READ));
        } catch (IOException | RuntimeException e) {
            closeQuietly(fd);
            throw e;
        }
    }

    /** The name it was opened by, to name it in messages. */
    public Path path() {
        return path;
    }

    /** The descriptor it was opened by, or -1 where it was opened by path (no C library here). */
    public int fd() {
        return fd;
    }

    /** Reads the file opened. */
    public FileChannel channel() {
        return channel;
    }

    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            if (fd >= 0) {
                closeQuietly(fd);
            }
        }
    }

    private static void closeQuietly(int fd) {
        try {
            CLibrary.close(fd);
        } catch (LastErrorException e) {
            // A descriptor only read from has nothing left to lose at its close.
        }
    }

    /** open(2) flag and errno values differ between kernels and, for O_NOFOLLOW, between Linux architectures. */
    private record Flags(int nofollow, int nonblock, int cloexec, int eloop, String descriptors) {
        static Flags forThisPlatform() {
            if (Platform.isLinux() && (Platform.isIntel() || Platform.isARM())) {
                // x86 keeps asm-generic's O_NOFOLLOW; arm and arm64 define their own.
                return new Flags(Platform.isARM() ? 0100000 : 0400000, 04000, 02000000, 40, "/proc/self/fd/");
            }
            if (Platform.isMac()) {
                return new Flags(0x100, 0x4, 0x1000000, 62, "/dev/fd/");
            }
            return null;
        }
    }
}

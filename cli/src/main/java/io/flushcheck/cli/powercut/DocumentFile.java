package io.flushcheck.cli.powercut;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A document a command reads that anyone may have written, such as a shard's report: opened once without
 * following a link and without waiting (a FIFO is never waited on), refused unless the opened file is a regular
 * one of at most {@link #MAX_BYTES}, which is checked before a byte is read.
 */
final class DocumentFile {

    /** The largest document read: a shard's report of the most states a bound and a draw give fits in it. */
    static final long MAX_BYTES = 256L << 20;

    /** How {@link #MAX_BYTES} is said. */
    static final String MAX_SHOWN = "256 MiB";

    private DocumentFile() {
    }

    /**
     * The whole file.
     *
     * @throws IllegalArgumentException naming the file and why it is not read: a link, not a regular file, too
     *                                  large, or a failure to read it
     */
    static byte[] read(Path file) {
        Flags flags = Flags.forThisPlatform();
        if (flags == null) {
            return readByPath(file);
        }
        int fd;
        try {
            fd = open(file, flags);
        } catch (LinkageError e) {
            // No C library through JNA here (its native part would not load): checked by path, as on other systems.
            return readByPath(file);
        }
        try {
            // The descriptor's own file, as /proc/self/fd or /dev/fd names it: the one opened, whatever the path
            // names by now.
            return readChecked(file, Path.of(flags.descriptors + fd));
        } finally {
            try {
                C.close(fd);
            } catch (LastErrorException ignored) {
                // A descriptor only read from has nothing left to lose at its close.
            }
        }
    }

    private static int open(Path file, Flags flags) {
        try {
            // O_NONBLOCK: opening a FIFO for reading would wait for a writer; no document is read this way.
            return C.open(file.toString(), flags.nofollow | flags.nonblock | flags.cloexec);
        } catch (LastErrorException e) {
            throw new IllegalArgumentException(file + (e.getErrorCode() == flags.eloop
                    ? " is a symbolic link: documents are read from the file itself, never through a link"
                    : ": cannot open it: " + C.strerror(e.getErrorCode())));
        }
    }

    /**
     * Where no descriptor can be opened without waiting: the type is checked just before the file is opened, and a
     * FIFO put in its place in between would be waited on.
     */
    private static byte[] readByPath(Path file) {
        return readChecked(file, file);
    }

    private static byte[] readChecked(Path file, Path opened) {
        try {
            // By path, no link is followed; a descriptor's name is a link to the file it holds open.
            LinkOption[] links = opened == file ? new LinkOption[] {LinkOption.NOFOLLOW_LINKS} : new LinkOption[0];
            BasicFileAttributes a = Files.readAttributes(opened, BasicFileAttributes.class, links);
            if (a.isSymbolicLink()) {
                throw new IllegalArgumentException(file + " is a symbolic link: documents are read from the file"
                        + " itself, never through a link");
            }
            if (!a.isRegularFile()) {
                throw new IllegalArgumentException(file + " is " + (a.isDirectory() ? "a directory" : "a FIFO, a device"
                        + " or a socket") + ", not a regular file");
            }
            tooLarge(file, a.size());
            try (FileChannel ch = FileChannel.open(opened, options(links))) {
                // A file that grows after the check is read no further than the cap and then refused.
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(a.size() + 1, MAX_BYTES + 1));
                while (ch.read(buf) > 0) {
                    if (!buf.hasRemaining()) {
                        tooLarge(file, buf.capacity());
                        buf = ByteBuffer.allocate((int) Math.min(2L * buf.capacity(), MAX_BYTES + 1)).put(buf.flip());
                    }
                }
                byte[] bytes = new byte[buf.position()];
                buf.flip().get(bytes);
                return bytes;
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read it: " + e.getMessage());
        }
    }

    private static Set<OpenOption> options(LinkOption[] links) {
        Set<OpenOption> options = new HashSet<>(List.of(links));
        options.add(StandardOpenOption.READ);
        return options;
    }

    private static void tooLarge(Path file, long size) {
        if (size > MAX_BYTES) {
            throw new IllegalArgumentException(file + " is " + size + " bytes, more than the " + MAX_SHOWN
                    + " a document may be");
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

    /** Direct-mapped libc: registered when a document is first read, never on a command that reads none. */
    private static final class C {
        static {
            Native.register(C.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static native int open(String path, int flags) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;

        static native String strerror(int errno);

        private C() {
        }
    }
}

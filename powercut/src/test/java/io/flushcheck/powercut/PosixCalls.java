package io.flushcheck.powercut;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The file calls a program makes, made through the C library so that a test reads the errno each returns as a
 * number: Java's IOException carries only its text.
 */
final class PosixCalls {

    private interface C extends Library {
        C LIB = Native.load("c", C.class);

        int open(String path, int flags, int mode);

        long pwrite(int fd, byte[] buf, long count, long offset);

        int fsync(int fd);

        int fdatasync(int fd);

        int close(int fd);
    }

    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CREAT = 0100;
    static final int O_DIRECTORY = 0200000;

    private final int fd;

    private PosixCalls(int fd) {
        this.fd = fd;
    }

    /** Opens {@code file} for writing, made if missing; the errno as an IllegalStateException when it cannot. */
    static PosixCalls openForWriting(Path file) {
        int fd = C.LIB.open(file.toString(), O_WRONLY | O_CREAT, 0644);
        if (fd < 0) {
            throw new IllegalStateException("open " + file + ": errno " + Native.getLastError());
        }
        return new PosixCalls(fd);
    }

    /** Opens directory {@code dir}, to sync its names. */
    static PosixCalls openDirectory(Path dir) {
        int fd = C.LIB.open(dir.toString(), O_RDONLY | O_DIRECTORY, 0);
        if (fd < 0) {
            throw new IllegalStateException("open " + dir + ": errno " + Native.getLastError());
        }
        return new PosixCalls(fd);
    }

    /** {@code pwrite(2)} of {@code text} at {@code offset}: 0, or the errno. */
    int pwrite(String text, long offset) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        long n = C.LIB.pwrite(fd, b, b.length, offset);
        return n < 0 ? Native.getLastError() : n == b.length ? 0 : -1;
    }

    /** {@code fsync(2)}: 0, or the errno. */
    int fsync() {
        return C.LIB.fsync(fd) == 0 ? 0 : Native.getLastError();
    }

    /** {@code fdatasync(2)}: 0, or the errno. */
    int fdatasync() {
        return C.LIB.fdatasync(fd) == 0 ? 0 : Native.getLastError();
    }

    /** {@code close(2)}: 0, or the errno. */
    int close() {
        return C.LIB.close(fd) == 0 ? 0 : Native.getLastError();
    }

    /** Writes {@code text} at 0, syncs the file and closes it, failing on any error. */
    static void writeSynced(Path file, String text) {
        PosixCalls f = openForWriting(file);
        int e = f.pwrite(text, 0);
        e = e != 0 ? e : f.fsync();
        f.close();
        if (e != 0) {
            throw new IllegalStateException("writing " + file + ": errno " + e);
        }
    }

    /** Syncs directory {@code dir}, failing on any error. */
    static void syncDirectory(Path dir) {
        PosixCalls d = openDirectory(dir);
        int e = d.fsync();
        d.close();
        if (e != 0) {
            throw new IllegalStateException("syncing " + dir + ": errno " + e);
        }
    }

    /** The name of errno {@code e}, as the tests report it: {@code EIO}, or the number when no {@link Errno} has it. */
    static String name(int e) {
        if (e == 0) {
            return "success";
        }
        for (Errno x : Errno.values()) {
            if (x.number() == e) {
                return x.name();
            }
        }
        return "errno " + e;
    }
}

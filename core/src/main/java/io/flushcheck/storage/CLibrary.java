package io.flushcheck.storage;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.apiguardian.api.API;

/**
 * The C library calls flushcheck makes outside the power-cut drive, bound once by JNA's direct mapping (one JNI hop
 * a call, no reflection) in the process's global scope, not in libc's own: a library preloaded to intercept syncs
 * (eatmydata) intercepts these calls exactly as it intercepts the application's, so a probe measures what the
 * application gets. Bound on first use, on Linux and macOS only: call {@link #unavailable()} first; a call made where
 * it says why not fails with an {@link UnsatisfiedLinkError}. Calls that return -1 throw {@link LastErrorException}
 * with the errno, but {@link #read} and {@link #write(int, long, long)}, which leave it to
 * {@link Native#getLastError()}: a drive's server makes one of each a request, and an exception there costs more than
 * the call.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CLibrary {

    private static volatile String unavailable;

    private CLibrary() {
    }

    /**
     * Binds the calls once.
     *
     * @return null when they are bound, else why not (this system is not Linux or macOS, or JNA's native part or the
     *         C library would not load)
     */
    public static String unavailable() {
        String u = unavailable;
        if (u == null) {
            synchronized (CLibrary.class) {
                u = unavailable;
                if (u == null) {
                    u = bind();
                    unavailable = u;
                }
            }
        }
        return u.isEmpty() ? null : u;
    }

    private static String bind() {
        if (!Platform.isLinux() && !Platform.isMac()) {
            return "the C library is called on Linux and macOS only; this is " + System.getProperty("os.name");
        }
        try {
            NativeLibrary process = NativeLibrary.getProcess();
            Native.register(CLibrary.class, process);
            if (Platform.isLinux()) {
                Native.register(Linux.class, process);
            }
            return "";
        } catch (LinkageError | RuntimeException e) {
            return "cannot load the C library through JNA: " + e;
        }
    }

    public static native int open(String path, int flags, int mode) throws LastErrorException;

    public static native int close(int fd) throws LastErrorException;

    public static native int access(String path, int mode) throws LastErrorException;

    public static native long pwrite(int fd, Pointer buf, long count, long offset) throws LastErrorException;

    public static native long write(int fd, Pointer buf, long count) throws LastErrorException;

    public static native int fsync(int fd) throws LastErrorException;

    public static native int fdatasync(int fd) throws LastErrorException;

    public static native int fcntl(int fd, int cmd) throws LastErrorException;

    public static native int fchmod(int fd, int mode) throws LastErrorException;

    /** {@code ioctl(2)} with a pointer argument. */
    public static native int ioctl(int fd, long request, Pointer arg) throws LastErrorException;

    /** {@code ioctl(2)} with a buffer the call fills. */
    public static native int ioctl(int fd, long request, byte[] arg) throws LastErrorException;

    /** {@code ioctl(2)} with an integer argument. */
    public static native int ioctl(int fd, long request, long arg) throws LastErrorException;

    /** {@code read(fd, address, count)}; errno in {@link Native#getLastError()} when it returns -1. */
    public static native long read(int fd, long address, long count);

    /** {@code write(fd, address, count)}; errno in {@link Native#getLastError()} when it returns -1. */
    public static native long write(int fd, long address, long count);

    /** The C library's description of {@code errno}. */
    public static native String strerror(int errno);

    /**
     * The calls that make files relative to an open directory, and statx, bound on Linux only: macOS keeps making files
     * by path (its probe judges by timing, with no mount facts to hold the directory to).
     */
    public static final class Linux {
        public static native int openat(int dirFd, String path, int flags, int mode) throws LastErrorException;

        public static native int unlinkat(int dirFd, String path, int flags) throws LastErrorException;

        public static native int fallocate(int fd, int mode, long offset, long length) throws LastErrorException;

        /** statx(2) through syscall(2): glibc before 2.28 and musl builds may lack the wrapper. */
        public static native long syscall(long number, int dirFd, String path, int flags, int mask, Pointer buf)
                throws LastErrorException;

        private Linux() {
        }
    }

    /**
     * memfd_create(2), bound apart from the other calls: a C library without it (glibc before 2.27, musl before
     * 1.1.20, macOS) must not cost the probe its other calls. Bound when first asked for, by a probe long enough to
     * warm up, so that a short probe's cold start does not pay for it.
     */
    public static final class Memfd {
        private static final boolean BOUND = bind();

        public static native int memfd_create(String name, int flags) throws LastErrorException;

        /** Whether memfd_create is bound here. */
        public static boolean bound() {
            return BOUND;
        }

        private static boolean bind() {
            try {
                Native.register(Memfd.class, NativeLibrary.getProcess());
                return true;
            } catch (LinkageError | RuntimeException e) {
                return false; // no scratch files: the probe then runs unwarmed
            }
        }

        private Memfd() {
        }
    }
}

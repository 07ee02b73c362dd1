package io.flushcheck.probe;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * {@link SyncCalls} through JNA direct mapping. Symbols are bound in the process's global scope,
 * not in libc's own, so a library preloaded to intercept syncs (eatmydata) intercepts our calls
 * exactly as it intercepts the application's: the probe measures what the application gets.
 */
final class NativeSyncCalls implements SyncCalls {

    private static final Flags FLAGS = Flags.forThisPlatform();

    private static volatile Object loaded;

    private NativeSyncCalls() {
    }

    /**
     * Loads the bindings once.
     *
     * @throws UnsupportedOperationException with the reason when this OS or architecture is not supported
     *                                       or the native library cannot be loaded
     */
    static SyncCalls load() {
        Object state = loaded;
        if (state == null) {
            synchronized (NativeSyncCalls.class) {
                state = loaded;
                if (state == null) {
                    state = tryLoad();
                    loaded = state;
                }
            }
        }
        if (state instanceof String reason) {
            throw new UnsupportedOperationException(reason);
        }
        return (SyncCalls) state;
    }

    private static Object tryLoad() {
        if (FLAGS == null) {
            return "native sync probes support 64-bit Linux (x86-64, arm64) and macOS; this is " + System.getProperty("os.name")
                    + " on " + System.getProperty("os.arch");
        }
        try {
            Native.register(Libc.class, NativeLibrary.getProcess());
            return new NativeSyncCalls();
        } catch (LinkageError | RuntimeException e) {
            return "cannot load the C library through JNA: " + e;
        }
    }

    /** Direct-mapped libc: one JNI hop per call, no per-call reflection. */
    static final class Libc {
        static native int open(String path, int flags, int mode) throws LastErrorException;

        static native long pwrite(int fd, Pointer buf, long count, long offset) throws LastErrorException;

        static native long write(int fd, Pointer buf, long count) throws LastErrorException;

        static native int fsync(int fd) throws LastErrorException;

        static native int fdatasync(int fd) throws LastErrorException;

        static native int fcntl(int fd, int cmd) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;

        static native int fchmod(int fd, int mode) throws LastErrorException;

        static native String strerror(int errno);

        private Libc() {
        }
    }

    private static NativeCallException failure(String call, LastErrorException e) {
        int errno = e.getErrorCode();
        return new NativeCallException(call, errno, Libc.strerror(errno));
    }

    @Override
    public int createExclusive(String path, boolean dsync) {
        int flags = FLAGS.wronly | FLAGS.creat | FLAGS.excl | FLAGS.nofollow | FLAGS.cloexec | (dsync ? FLAGS.dsync : 0);
        int fd;
        try {
            fd = Libc.open(path, flags, 0600);
        } catch (LastErrorException e) {
            throw failure("open(" + path + ")", e);
        }
        // open(2) is variadic: where variadic arguments travel differently (macOS on arm64) the mode
        // argument of a fixed-arity binding is not read, so set it again explicitly.
        try {
            Libc.fchmod(fd, 0600);
        } catch (LastErrorException e) {
            close(fd);
            throw failure("fchmod(" + path + ")", e);
        }
        return fd;
    }

    @Override
    public long pwrite(int fd, Pointer buffer, long count, long offset) {
        try {
            long n = Libc.pwrite(fd, buffer, count, offset);
            if (n != count) {
                throw new NativeCallException("pwrite", 0, "short write of " + n + " of " + count + " bytes");
            }
            return n;
        } catch (LastErrorException e) {
            throw failure("pwrite", e);
        }
    }

    @Override
    public long write(int fd, Pointer buffer, long count) {
        try {
            long n = Libc.write(fd, buffer, count);
            if (n != count) {
                throw new NativeCallException("write", 0, "short write of " + n + " of " + count + " bytes");
            }
            return n;
        } catch (LastErrorException e) {
            throw failure("write", e);
        }
    }

    @Override
    public void fsync(int fd) {
        try {
            Libc.fsync(fd);
        } catch (LastErrorException e) {
            throw failure("fsync", e);
        }
    }

    @Override
    public void fdatasync(int fd) {
        try {
            if (Platform.isMac()) {
                // macOS has no fdatasync in its public headers; fsync is the equivalent there.
                Libc.fsync(fd);
            } else {
                Libc.fdatasync(fd);
            }
        } catch (LastErrorException e) {
            throw failure("fdatasync", e);
        }
    }

    @Override
    public void fullFsync(int fd) {
        fcntl(fd, FLAGS.fullFsync, "F_FULLFSYNC");
    }

    @Override
    public void barrierFsync(int fd) {
        fcntl(fd, FLAGS.barrierFsync, "F_BARRIERFSYNC");
    }

    private static void fcntl(int fd, int cmd, String name) {
        if (cmd < 0) {
            throw new NativeCallException("fcntl(" + name + ")", 0, name + " exists on macOS only");
        }
        try {
            Libc.fcntl(fd, cmd);
        } catch (LastErrorException e) {
            throw failure("fcntl(" + name + ")", e);
        }
    }

    @Override
    public void close(int fd) {
        try {
            Libc.close(fd);
        } catch (LastErrorException e) {
            throw failure("close", e);
        }
    }

    /** open(2) flag values differ between kernels and, for a few, between Linux architectures. */
    record Flags(int wronly, int creat, int excl, int nofollow, int cloexec, int dsync, int fullFsync, int barrierFsync) {
        static Flags forThisPlatform() {
            if (!Platform.is64Bit()) {
                // pwrite's off_t and the long-returning bindings assume a 64-bit ABI.
                return null;
            }
            if (Platform.isLinux()) {
                boolean arm = Platform.isARM();
                // x86 keeps asm-generic's O_NOFOLLOW; arm and arm64 define their own.
                int nofollow = arm ? 0100000 : 0400000;
                if (!(Platform.isIntel() || arm)) {
                    return null;
                }
                return new Flags(01, 0100, 0200, nofollow, 02000000, 010000, -1, -1);
            }
            if (Platform.isMac()) {
                return new Flags(0x1, 0x200, 0x800, 0x100, 0x1000000, 0x400000, 51, 85);
            }
            return null;
        }
    }
}

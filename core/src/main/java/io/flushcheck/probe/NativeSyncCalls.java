package io.flushcheck.probe;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import io.flushcheck.storage.CLibrary;
import io.flushcheck.storage.SysFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@link SyncCalls} through JNA direct mapping ({@link CLibrary}). Symbols are bound in the process's global scope,
 * not in libc's own, so a library preloaded to intercept syncs (eatmydata) intercepts our calls
 * exactly as it intercepts the application's: the probe measures what the application gets.
 */
final class NativeSyncCalls implements SyncCalls {

    private static final Flags FLAGS = Flags.forThisPlatform();

    private static final NativeSyncCalls CALLS = new NativeSyncCalls();

    private NativeSyncCalls() {
    }

    /**
     * The calls, bound once ({@link CLibrary#unavailable()}).
     *
     * @throws UnsupportedOperationException with the reason when this OS or architecture is not supported
     *                                       or the native library cannot be loaded
     */
    static SyncCalls load() {
        if (FLAGS == null) {
            throw new UnsupportedOperationException("native sync probes support 64-bit Linux (x86-64, arm64) and macOS;"
                    + " this is " + System.getProperty("os.name") + " on " + System.getProperty("os.arch"));
        }
        String unavailable = CLibrary.unavailable();
        if (unavailable != null) {
            throw new UnsupportedOperationException(unavailable);
        }
        return CALLS;
    }

    private static final int MFD_CLOEXEC = 1;

    private static NativeCallException failure(String call, LastErrorException e) {
        int errno = e.getErrorCode();
        return new NativeCallException(call, errno, CLibrary.strerror(errno));
    }

    @Override
    public int createExclusive(String path, boolean dsync) {
        int fd;
        try {
            fd = CLibrary.open(path, exclusive(dsync), 0600);
        } catch (LastErrorException e) {
            throw failure("open(" + path + ")", e);
        }
        return owned(fd, path);
    }

    private static int exclusive(boolean dsync) {
        return FLAGS.wronly | FLAGS.creat | FLAGS.excl | FLAGS.nofollow | FLAGS.cloexec | (dsync ? FLAGS.dsync : 0);
    }

    /**
     * {@code fd}, made 0600 again: open(2) is variadic, and where variadic arguments travel differently (macOS on
     * arm64) the mode argument of a fixed-arity binding is not read.
     */
    private int owned(int fd, String shown) {
        try {
            CLibrary.fchmod(fd, 0600);
        } catch (LastErrorException e) {
            close(fd);
            throw failure("fchmod(" + shown + ")", e);
        }
        return fd;
    }

    @Override
    public int openDirectory(String path) {
        if (FLAGS.directory == 0) {
            return -1;
        }
        try {
            // O_PATH: a handle on the directory itself, which needs no read permission on it.
            return CLibrary.open(path, FLAGS.path | FLAGS.directory | FLAGS.cloexec, 0);
        } catch (LastErrorException e) {
            throw failure("open(" + path + ")", e);
        }
    }

    @Override
    public int createExclusiveAt(int dirFd, String name, String shown, boolean dsync) {
        int fd;
        try {
            fd = CLibrary.Linux.openat(dirFd, name, exclusive(dsync), 0600);
        } catch (LastErrorException e) {
            throw failure("open(" + shown + ")", e);
        }
        return owned(fd, shown);
    }

    @Override
    public boolean unlinkAt(int dirFd, String name, String shown) {
        try {
            CLibrary.Linux.unlinkat(dirFd, name, 0);
            return true;
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ENOENT) {
                return false;
            }
            throw failure("unlink(" + shown + ")", e);
        }
    }

    @Override
    public long mountIdOf(int fd) {
        long id = FLAGS.statx > 0 ? statxMountId(fd) : -1;
        return id >= 0 ? id : fdinfoMountId(fd);
    }

    /** statx's STATX_MNT_ID (Linux 5.8): the id mountinfo gives the mount, not the 64-bit STATX_MNT_ID_UNIQUE. */
    static long statxMountId(int fd) {
        try (Memory buf = new Memory(STATX_SIZE)) {
            buf.clear();
            CLibrary.Linux.syscall(FLAGS.statx, fd, "", AT_EMPTY_PATH, STATX_MNT_ID, buf);
            return (buf.getInt(0) & STATX_MNT_ID) != 0 ? buf.getLong(STATX_MNT_ID_OFFSET) : -1;
        } catch (LastErrorException e) {
            return -1; // ENOSYS (before 4.11, or a seccomp filter that refuses it): fdinfo tells
        }
    }

    /** {@code mnt_id:} in /proc/self/fdinfo/FD (Linux 3.15). */
    static long fdinfoMountId(int fd) {
        String info;
        try {
            info = SysFiles.read(Path.of("/proc/self/fdinfo/" + fd));
        } catch (IOException e) {
            return -1;
        }
        int at = info.indexOf("mnt_id:");
        if (at < 0) {
            return -1;
        }
        int start = at + 7;
        while (start < info.length() && (info.charAt(start) == ' ' || info.charAt(start) == '\t')) {
            start++;
        }
        int end = start;
        while (end < info.length() && info.charAt(end) >= '0' && info.charAt(end) <= '9') {
            end++;
        }
        return end > start ? Long.parseLong(info.substring(start, end)) : -1;
    }

    @Override
    public boolean preallocate(int fd, long length) {
        if (FLAGS.directory == 0) {
            return false; // macOS has no fallocate(2)
        }
        try {
            CLibrary.Linux.fallocate(fd, 0, 0, length);
            return true;
        } catch (LastErrorException e) {
            if (e.getErrorCode() == EOPNOTSUPP || e.getErrorCode() == ENOSYS) {
                return false;
            }
            throw failure("fallocate", e);
        }
    }

    private static final int ENOENT = 2;
    private static final int ENOSYS = 38;
    private static final int EOPNOTSUPP = 95;
    private static final int AT_EMPTY_PATH = 0x1000;
    private static final int STATX_MNT_ID = 0x1000;
    /** struct statx: 256 bytes, stx_mnt_id at 0x90. */
    private static final int STATX_SIZE = 256;
    private static final int STATX_MNT_ID_OFFSET = 0x90;

    @Override
    public int scratchFile() {
        if (FLAGS == null || FLAGS.directory == 0 || !CLibrary.Memfd.bound()) {
            return -1; // macOS has no memfd_create
        }
        try {
            return CLibrary.Memfd.memfd_create("flushcheck-warm-up", MFD_CLOEXEC);
        } catch (LastErrorException e) {
            return -1; // ENOSYS (a kernel before 3.17), EMFILE: the probe runs unwarmed
        }
    }

    @Override
    public long pwrite(int fd, Pointer buffer, long count, long offset) {
        try {
            long n = CLibrary.pwrite(fd, buffer, count, offset);
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
            long n = CLibrary.write(fd, buffer, count);
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
            CLibrary.fsync(fd);
        } catch (LastErrorException e) {
            throw failure("fsync", e);
        }
    }

    @Override
    public void fdatasync(int fd) {
        try {
            if (Platform.isMac()) {
                // macOS has no fdatasync in its public headers; fsync is the equivalent there.
                CLibrary.fsync(fd);
            } else {
                CLibrary.fdatasync(fd);
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
            CLibrary.fcntl(fd, cmd);
        } catch (LastErrorException e) {
            throw failure("fcntl(" + name + ")", e);
        }
    }

    @Override
    public void close(int fd) {
        try {
            CLibrary.close(fd);
        } catch (LastErrorException e) {
            throw failure("close", e);
        }
    }

    /** open(2) flag values differ between kernels and, for a few, between Linux architectures. */
    record Flags(int wronly, int creat, int excl, int nofollow, int cloexec, int dsync, int fullFsync, int barrierFsync,
                 int directory, int path, int statx) {
        static Flags forThisPlatform() {
            if (!Platform.is64Bit()) {
                // pwrite's off_t and the long-returning bindings assume a 64-bit ABI.
                return null;
            }
            if (Platform.isLinux()) {
                boolean arm = Platform.isARM();
                // x86 keeps asm-generic's O_NOFOLLOW and O_DIRECTORY; arm and arm64 define their own.
                int nofollow = arm ? 0100000 : 0400000;
                int directory = arm ? 040000 : 0200000;
                if (!(Platform.isIntel() || arm)) {
                    return null;
                }
                // statx's system call number: 332 on x86-64, 291 on arm64 (asm-generic).
                return new Flags(01, 0100, 0200, nofollow, 02000000, 010000, -1, -1, directory, 010000000,
                        arm ? 291 : 332);
            }
            if (Platform.isMac()) {
                // No directory descriptors: the probe's files are made by path there.
                return new Flags(0x1, 0x200, 0x800, 0x100, 0x1000000, 0x400000, 51, 85, 0, 0, 0);
            }
            return null;
        }
    }
}

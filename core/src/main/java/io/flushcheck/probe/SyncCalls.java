package io.flushcheck.probe;

import com.sun.jna.Pointer;

/**
 * The system calls a probe makes, behind one interface so that the loop can be tested with a
 * stand-in and so that JNA is only touched when a probe really runs. Every method throws
 * {@link NativeCallException} (with errno) when the call fails. Package-private: JNA's {@code Pointer}
 * stays behind this seam.
 */
interface SyncCalls {

    /** Creates a new file exclusively (never through a symlink), mode 0600, write-only. */
    int createExclusive(String path, boolean dsync);

    /**
     * Opens a directory for the probe's files to be made relative to it ({@link #createExclusiveAt}): the
     * descriptor holds the directory, whatever later becomes of its name. -1 where files are made by path
     * (macOS, whose probe judges by timing alone; stand-ins).
     */
    default int openDirectory(String path) {
        return -1;
    }

    /** {@link #createExclusive} of {@code name} inside the directory open as {@code dirFd}; {@code shown} names it in errors. */
    default int createExclusiveAt(int dirFd, String name, String shown, boolean dsync) {
        throw new UnsupportedOperationException("no directory descriptors here");
    }

    /** Removes {@code name} from the directory open as {@code dirFd}; false when it was not there. */
    default boolean unlinkAt(int dirFd, String name, String shown) {
        throw new UnsupportedOperationException("no directory descriptors here");
    }

    /** The id of the mount an open file is on, as mountinfo numbers mounts; -1 where it cannot be told. */
    default long mountIdOf(int fd) {
        return -1;
    }

    /**
     * Allocates the first {@code length} bytes of a file and makes that its size ({@code fallocate(fd, 0, 0,
     * length)}); false where the filesystem or the OS cannot, and the file is left as it was.
     */
    default boolean preallocate(int fd, long length) {
        return false;
    }

    /**
     * A new file that reaches no disk, open for writing: memory only ({@code memfd_create(2)}), so that its writes
     * and syncs cost the calls and nothing of a device's. -1 where there is none (macOS, stand-ins).
     */
    default int scratchFile() {
        return -1;
    }

    long pwrite(int fd, Pointer buffer, long count, long offset);

    long write(int fd, Pointer buffer, long count);

    void fsync(int fd);

    void fdatasync(int fd);

    /** {@code fcntl(fd, F_FULLFSYNC)}; macOS only. */
    void fullFsync(int fd);

    /** {@code fcntl(fd, F_BARRIERFSYNC)}; macOS only. */
    void barrierFsync(int fd);

    void close(int fd);

    /** Fills {@code count} bytes at {@code buffer} with a pattern, so writes are not all zeros. */
    default void fill(Pointer buffer, long count) {
        for (long i = 0; i < count; i += 8) {
            long remaining = count - i;
            if (remaining >= 8) {
                buffer.setLong(i, 0x5A5A_F1F1_5A5A_F1F1L ^ i);
            } else {
                // The tail of a block whose size is no multiple of 8 (etcd's 2,300 bytes): every byte of it, or
                // what the allocator left there would be written to disk.
                for (long j = i; j < count; j++) {
                    buffer.setByte(j, (byte) 0x5A);
                }
            }
        }
    }
}

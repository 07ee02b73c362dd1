package io.flushcheck.powercut.internal.sys;

import com.sun.jna.Native;
import io.flushcheck.storage.CLibrary;
import org.apiguardian.api.API;

/**
 * read(2) and write(2) on {@code /dev/fuse}, by core's direct mapping ({@link CLibrary}): every request the drive
 * answers costs one of each, and a direct call skips the reflective proxy and the argument conversion of
 * an interface mapping ({@link Libc}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeviceCalls {

    static {
        String unavailable = CLibrary.unavailable();
        if (unavailable != null) {
            throw new UnsatisfiedLinkError(unavailable);
        }
    }

    private DeviceCalls() {
    }

    /** {@code read(fd, address, count)}; errno in {@link Native#getLastError()} when it returns -1. */
    public static long read(int fd, long address, long count) {
        return CLibrary.read(fd, address, count);
    }

    /** {@code write(fd, address, count)}; errno in {@link Native#getLastError()} when it returns -1. */
    public static long write(int fd, long address, long count) {
        return CLibrary.write(fd, address, count);
    }
}

package io.flushcheck.powercut.internal.sys;

import com.sun.jna.Native;
import org.apiguardian.api.API;

/**
 * read(2) and write(2) on {@code /dev/fuse}, bound by JNA's direct mapping: every request the drive
 * answers costs one of each, and a direct call skips the reflective proxy and the argument conversion of
 * an interface mapping ({@link Libc}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeviceCalls {

    static {
        Native.register("c");
    }

    private DeviceCalls() {
    }

    /** {@code read(fd, address, count)}; errno in {@link Native#getLastError()} when it returns -1. */
    public static native long read(int fd, long address, long count);

    /** {@code write(fd, address, count)}; errno in {@link Native#getLastError()} when it returns -1. */
    public static native long write(int fd, long address, long count);
}

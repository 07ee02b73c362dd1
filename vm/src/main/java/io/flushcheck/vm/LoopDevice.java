package io.flushcheck.vm;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import io.flushcheck.storage.DeviceStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A loop device made for one guest's disk, whose {@code /sys/block/loopN/stat} counts exactly what QEMU
 * sent to the host's storage: nothing else uses it. Attached with the kernel's autoclear flag in the same
 * call ({@code LOOP_CONFIGURE}, Linux 5.8), while this object holds it open: when the last opener closes it
 * (this JVM, and QEMU), the kernel detaches it, even after a SIGKILL of both. losetup cannot set the flag.
 */
final class LoopDevice implements AutoCloseable {

    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final long LOOP_CTL_GET_FREE = 0x4C82;
    private static final long LOOP_CONFIGURE = 0x4C0A;
    private static final long LOOP_CLR_FD = 0x4C01;
    private static final int LO_FLAGS_AUTOCLEAR = 4;
    private static final int EBUSY = 16;
    /** struct loop_config: fd, block_size, struct loop_info64 (232 bytes), 64 reserved bytes. */
    private static final int CONFIG_SIZE = 8 + 232 + 64;
    private static final int FLAGS_OFFSET = 8 + 52;
    private static final int FILE_NAME_OFFSET = 8 + 56;

    interface C extends Library {
        int open(String path, int flags, int mode);

        int close(int fd);

        int ioctl(int fd, NativeLong request, Pointer arg);

        int ioctl(int fd, NativeLong request, NativeLong arg);

        String strerror(int errnum);
    }

    private static C c;

    private final String name;
    private int fd;

    private LoopDevice(String name, int fd) {
        this.name = name;
        this.fd = fd;
    }

    private static synchronized C c() {
        if (c == null) {
            c = Native.load("c", C.class);
        }
        return c;
    }

    /** Attaches {@code file} to a free loop device. */
    static LoopDevice attach(Path file) {
        C libc = c();
        int ctl = libc.open("/dev/loop-control", O_RDWR | O_CLOEXEC, 0);
        if (ctl < 0) {
            throw failure("open /dev/loop-control");
        }
        int backing = -1;
        try {
            backing = libc.open(file.toString(), O_RDWR | O_CLOEXEC, 0);
            if (backing < 0) {
                throw failure("open " + file);
            }
            for (int attempt = 0; attempt < 20; attempt++) {
                int n = libc.ioctl(ctl, new NativeLong(LOOP_CTL_GET_FREE), new NativeLong(0));
                if (n < 0) {
                    throw failure("find a free loop device (LOOP_CTL_GET_FREE; at most /sys/module/loop/parameters/max_loop)");
                }
                String dev = "loop" + n;
                int fd = libc.open("/dev/" + dev, O_RDWR | O_CLOEXEC, 0);
                if (fd < 0) {
                    throw failure("open /dev/" + dev);
                }
                try (Memory config = new Memory(CONFIG_SIZE)) {
                    config.clear();
                    config.setInt(0, backing);
                    config.setInt(FLAGS_OFFSET, LO_FLAGS_AUTOCLEAR);
                    byte[] fileName = file.toString().getBytes(StandardCharsets.UTF_8);
                    config.write(FILE_NAME_OFFSET, fileName, 0, Math.min(fileName.length, 63));
                    if (libc.ioctl(fd, new NativeLong(LOOP_CONFIGURE), config) == 0) {
                        return new LoopDevice(dev, fd);
                    }
                    int errno = Native.getLastError();
                    libc.close(fd);
                    if (errno != EBUSY) {
                        throw new IllegalStateException("cannot attach " + file + " to /dev/" + dev + " (LOOP_CONFIGURE): "
                                + libc.strerror(errno));
                    }
                    // another process took it between GET_FREE and CONFIGURE: ask again
                }
            }
            throw new IllegalStateException("cannot attach " + file + ": every free loop device was taken by others, 20 times");
        } finally {
            if (backing >= 0) {
                libc.close(backing);
            }
            libc.close(ctl);
        }
    }

    private static IllegalStateException failure(String what) {
        int errno = Native.getLastError();
        return new IllegalStateException("cannot " + what + ": " + c().strerror(errno));
    }

    /** {@code loop3}. */
    String name() {
        return name;
    }

    Path path() {
        return Path.of("/dev", name);
    }

    /** The device's counters now. */
    DeviceStat stat() {
        try {
            return DeviceStat.read(Path.of("/sys/block", name, "stat"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /sys/block/" + name + "/stat: " + e.getMessage(), e);
        }
    }

    /** Whether a loop device has a backing file (is attached), by its sysfs entry. */
    static boolean attached(String name) {
        return Files.exists(Path.of("/sys/block", name, "loop", "backing_file"));
    }

    /**
     * Detaches it (at once when nothing else holds it open, else when the last opener closes it) and waits up to
     * two seconds for the kernel to finish. Idempotent.
     */
    @Override
    public void close() {
        if (fd < 0) {
            return;
        }
        c().ioctl(fd, new NativeLong(LOOP_CLR_FD), new NativeLong(0));
        c().close(fd);
        fd = -1;
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (attached(name) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "/dev/" + name;
    }
}

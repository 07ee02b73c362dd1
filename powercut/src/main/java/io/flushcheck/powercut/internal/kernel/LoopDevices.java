package io.flushcheck.powercut.internal.kernel;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Loop devices attached and detached by the kernel's own ioctls (linux/loop.h), as losetup does them but
 * without a process per call: a power-cut cycle attaches and detaches several, and each losetup costs
 * several milliseconds more than the ioctl it makes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LoopDevices {

    private static final long LOOP_CTL_GET_FREE = 0x4C82;
    private static final long LOOP_CONFIGURE = 0x4C0A;
    private static final long LOOP_CLR_FD = 0x4C01;
    private static final int LO_FLAGS_DIRECT_IO = 16;
    private static final int O_DIRECT = 040000;
    private static final int EBUSY = 16;
    private static final int ENOENT = 2;
    /** struct loop_config: fd, block_size, struct loop_info64 (232 bytes), 64 reserved bytes. */
    private static final int CONFIG_BYTES = 4 + 4 + 232 + 64;
    private static final int FLAGS_AT = 8 + 52;
    private static final int FILE_NAME_AT = 8 + 56;
    private static final int FILE_NAME_BYTES = 64;
    private static final int ATTEMPTS = 100;

    private LoopDevices() {
    }

    /**
     * Attaches a free loop device to {@code file}, read-write; with {@code directIo}, opened with O_DIRECT
     * and flagged for direct I/O (the kernel may still leave it off: its {@code loop/dio} says).
     *
     * @return the device, like {@code /dev/loop3}
     * @throws NoFreeLoopDevice when the kernel has none free and may make no more
     */
    public static String attach(Path file, boolean directIo) throws IOException {
        int control = open("/dev/loop-control", Libc.O_RDWR | Libc.O_CLOEXEC);
        try {
            int backing = open(file.toString(), Libc.O_RDWR | Libc.O_CLOEXEC | (directIo ? O_DIRECT : 0));
            try {
                return configure(control, backing, file, directIo);
            } finally {
                Libc.C.close(backing);
            }
        } finally {
            Libc.C.close(control);
        }
    }

    private static String configure(int control, int backing, Path file, boolean directIo) throws IOException {
        Memory config = new Memory(CONFIG_BYTES);
        config.clear();
        config.setInt(0, backing);
        config.setInt(FLAGS_AT, directIo ? LO_FLAGS_DIRECT_IO : 0);
        byte[] name = file.toString().getBytes(StandardCharsets.UTF_8);
        config.write(FILE_NAME_AT, name, 0, Math.min(name.length, FILE_NAME_BYTES - 1));
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int number = Libc.C.ioctl(control, LOOP_CTL_GET_FREE, 0L);
            if (number < 0) {
                throw new NoFreeLoopDevice("the kernel gives no free loop device for " + file + ": "
                        + Libc.C.strerror(Libc.errno()));
            }
            String device = "/dev/loop" + number;
            int fd = Libc.C.open(device, Libc.O_RDWR | Libc.O_CLOEXEC);
            if (fd < 0) {
                int errno = Libc.errno();
                if (errno == ENOENT) {
                    pause(); // devtmpfs makes the node just after the kernel makes the device
                    continue;
                }
                throw new IOException("cannot open " + device + ": " + Libc.C.strerror(errno));
            }
            int r = Libc.C.ioctl(fd, LOOP_CONFIGURE, config);
            int errno = Libc.errno();
            Libc.C.close(fd);
            if (r == 0) {
                return device;
            }
            if (errno != EBUSY) {
                throw new IOException("cannot attach " + device + " to " + file + ": " + Libc.C.strerror(errno));
            }
            // Another program took the device between our finding it free and attaching it: find another.
        }
        throw new IOException("no loop device could be attached to " + file + " in " + ATTEMPTS
                + " attempts: other programs took each one first");
    }

    /**
     * Detaches {@code device}; one whose filesystem is still mounted (lazily unmounted, or in use) is
     * freed by the kernel when that ends, as {@code losetup --detach} does.
     */
    public static void detach(String device) throws IOException {
        int fd = open(device, Libc.O_RDWR | Libc.O_CLOEXEC);
        try {
            if (Libc.C.ioctl(fd, LOOP_CLR_FD, 0L) != 0) {
                throw new IOException("cannot detach " + device + ": " + Libc.C.strerror(Libc.errno()));
            }
        } finally {
            Libc.C.close(fd);
        }
    }

    /** The file {@code device} maps, as the kernel names it, or null when it maps none. */
    public static String backingFile(String device) {
        try {
            return Files.readString(sysLoop(device).resolve("backing_file")).trim();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Waits up to two seconds for a detached {@code device} to let go of {@code image}: one whose filesystem was
     * still ending (unmounted in the background) is freed when that ends, and its last writes should still find
     * the file (and a drive's server) there. Not for a device whose filesystem files still hold open
     * ({@link Mounts#inUse}): the kernel frees that one only when the last of them closes, and this would wait
     * out its deadline. Polls every 2 ms: a crash-state check detaches a device per state.
     */
    public static void awaitRelease(String device, Path image) {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (image.toString().equals(backingFile(device)) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** True when the kernel reads and writes {@code device}'s file with direct I/O: its {@link #sysLoop} {@code dio} is 1. */
    public static boolean directIo(String device) {
        try {
            return Files.readString(sysLoop(device).resolve("dio")).trim().equals("1");
        } catch (IOException e) {
            return false;
        }
    }

    /** Where sysfs tells of {@code device} as a loop device: {@code /sys/block/loopN/loop}. */
    public static Path sysLoop(String device) {
        return Path.of("/sys/block", Path.of(device).getFileName().toString(), "loop");
    }

    private static int open(String path, int flags) throws IOException {
        int fd = Libc.C.open(path, flags);
        if (fd < 0) {
            throw new IOException("cannot open " + path + ": " + Libc.C.strerror(Libc.errno()));
        }
        return fd;
    }

    private static void pause() throws IOException {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while attaching a loop device", e);
        }
    }

    /** The kernel has no free loop device to give. */
    public static final class NoFreeLoopDevice extends IOException {
        private static final long serialVersionUID = 1L;

        NoFreeLoopDevice(String message) {
            super(message);
        }
    }
}

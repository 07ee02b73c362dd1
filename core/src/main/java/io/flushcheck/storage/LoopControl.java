package io.flushcheck.storage;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Platform;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Loop devices attached and detached by the kernel's own ioctls (linux/loop.h), as losetup makes them but without a
 * process a call, and with flags losetup cannot set at attach time (autoclear): {@code LOOP_CTL_GET_FREE} on
 * {@code /dev/loop-control}, then {@code LOOP_CONFIGURE} (Linux 5.8) on the device it names, again on another when a
 * program took that one in between. Linux only.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LoopControl {

    /** The kernel detaches the device when its last opener closes it. */
    public static final int AUTOCLEAR = 4;
    /** The backing file is opened with O_DIRECT and the device flagged for direct I/O (the kernel may leave it off). */
    public static final int DIRECT_IO = 16;

    private static final long LOOP_CTL_GET_FREE = 0x4C82;
    private static final long LOOP_CONFIGURE = 0x4C0A;
    private static final long LOOP_CLR_FD = 0x4C01;
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 02000000;
    /** asm-generic's O_DIRECT; arm and arm64 define their own. */
    private static final int O_DIRECT = Platform.isARM() ? 0200000 : 040000;
    private static final int EBUSY = 16;
    private static final int ENOENT = 2;
    /** struct loop_config: fd, block_size, struct loop_info64 (232 bytes), 64 reserved bytes. */
    private static final int CONFIG_BYTES = 4 + 4 + 232 + 64;
    private static final int FLAGS_AT = 8 + 52;
    private static final int FILE_NAME_AT = 8 + 56;
    private static final int FILE_NAME_BYTES = 64;

    private LoopControl() {
    }

    /** A step of attaching or detaching, as a {@link Failure} names it. */
    public enum Step {
        /** The C library could not be bound here. */
        UNAVAILABLE,
        /** Opening {@code /dev/loop-control}, the backing file or the device. */
        OPEN,
        /** {@code LOOP_CTL_GET_FREE}: the kernel has no free loop device to give, and may make no more. */
        NO_FREE_DEVICE,
        /** {@code LOOP_CONFIGURE} failed for another reason than another program's taking the device first. */
        CONFIGURE,
        /** Every device the kernel gave was taken by another program first, as many times as asked. */
        ALL_TAKEN,
        /** Waiting for a device's node was interrupted. */
        INTERRUPTED,
        /** {@code LOOP_CLR_FD}. */
        DETACH
    }

    /**
     * What failed.
     *
     * @param step   the step
     * @param device the device, like {@code /dev/loop3}, or null before one was named
     * @param reason the C library's description of the kernel's errno, or null where there is none
     */
    public record Why(Step step, String device, String reason) implements Serializable {
    }

    /** Why a loop device was not attached or detached; the message says it in full. */
    public static final class Failure extends IOException {
        private static final long serialVersionUID = 1L;

        private final Why why;

        Failure(String message, Why why) {
            super(message);
            this.why = why;
        }

        public Why why() {
            return why;
        }
    }

    /** A loop device attached, with a descriptor on it open: the caller closes it. */
    public static final class Attached implements AutoCloseable {
        private final String device;
        private int fd;

        private Attached(String device, int fd) {
            this.device = device;
            this.fd = fd;
        }

        /** Like {@code /dev/loop3}. */
        public String device() {
            return device;
        }

        /**
         * Detaches it ({@code LOOP_CLR_FD}, ignoring failure: an autoclear device is detached by its last close anyway)
         * and closes the descriptor. Idempotent.
         */
        public void detach() {
            if (fd >= 0) {
                try {
                    CLibrary.ioctl(fd, LOOP_CLR_FD, 0L);
                } catch (LastErrorException e) {
                    // already detached, or still in use: the kernel frees it at the last close
                }
                close();
            }
        }

        /** Closes the descriptor; the device stays attached unless it is {@link LoopControl#AUTOCLEAR}. Idempotent. */
        @Override
        public void close() {
            if (fd >= 0) {
                closeQuietly(fd);
                fd = -1;
            }
        }
    }

    /**
     * Attaches a free loop device to {@code file}, read-write, its write cache mode set to {@code write back} where it
     * read otherwise (a setting of the device in sysfs that outlives an attachment: {@link #writeBack}).
     *
     * @param flags    {@link #AUTOCLEAR}, {@link #DIRECT_IO}, or both, or 0
     * @param attempts how many devices to try when other programs take each first
     * @throws Failure naming the step that failed
     */
    public static Attached attach(Path file, int flags, int attempts) throws Failure {
        String unavailable = CLibrary.unavailable();
        if (unavailable != null) {
            throw new Failure(unavailable, new Why(Step.UNAVAILABLE, null, null));
        }
        int control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
        try {
            int backing = open(file.toString(), O_RDWR | O_CLOEXEC | ((flags & DIRECT_IO) != 0 ? O_DIRECT : 0));
            try (Memory config = new Memory(CONFIG_BYTES)) {
                config.clear();
                config.setInt(0, backing);
                config.setInt(FLAGS_AT, flags);
                byte[] name = file.toString().getBytes(StandardCharsets.UTF_8);
                config.write(FILE_NAME_AT, name, 0, Math.min(name.length, FILE_NAME_BYTES - 1));
                return configure(control, config, file, attempts);
            } finally {
                closeQuietly(backing);
            }
        } finally {
            closeQuietly(control);
        }
    }

    /**
     * Sets {@code device}'s write cache mode ({@code queue/write_cache}) to {@code write back}, the kernel's own for a
     * loop device over a file it can fsync, where it reads otherwise: the mode is a setting of the device that outlives
     * an attachment, and on a device another program left {@code write through} the block layer completes every flush
     * at once without passing it on, so that nothing on it is ever synced. Where sysfs cannot be written (a container
     * may mount it read-only), the device keeps its mode: a caller whose results need its flushes checks that they
     * arrive.
     */
    static void writeBack(String device) {
        if (!writeCacheMode(device).equals("write back")) {
            try {
                Files.writeString(writeCacheFile(device), "write back");
            } catch (IOException e) {
                // left as it is: see above
            }
        }
    }

    /** {@code device}'s write cache mode as sysfs says it ({@code write back}, {@code write through}), or "unknown". */
    public static String writeCacheMode(String device) {
        try {
            return Files.readString(writeCacheFile(device)).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static Path writeCacheFile(String device) {
        return Path.of("/sys/block", Path.of(device).getFileName().toString(), "queue", "write_cache");
    }

    private static Attached configure(int control, Memory config, Path file, int attempts) throws Failure {
        for (int attempt = 0; attempt < attempts; attempt++) {
            int number;
            try {
                number = CLibrary.ioctl(control, LOOP_CTL_GET_FREE, 0L);
            } catch (LastErrorException e) {
                String reason = CLibrary.strerror(e.getErrorCode());
                throw new Failure("the kernel gives no free loop device for " + file + ": " + reason,
                        new Why(Step.NO_FREE_DEVICE, null, reason));
            }
            String device = "/dev/loop" + number;
            int fd;
            try {
                fd = CLibrary.open(device, O_RDWR | O_CLOEXEC, 0);
            } catch (LastErrorException e) {
                if (e.getErrorCode() == ENOENT) {
                    pause(); // devtmpfs makes the node just after the kernel makes the device
                    continue;
                }
                throw openFailure(device, e);
            }
            try {
                CLibrary.ioctl(fd, LOOP_CONFIGURE, config);
                writeBack(device);
                return new Attached(device, fd);
            } catch (LastErrorException e) {
                closeQuietly(fd);
                if (e.getErrorCode() != EBUSY) {
                    String reason = CLibrary.strerror(e.getErrorCode());
                    throw new Failure("cannot attach " + device + " to " + file + ": " + reason,
                            new Why(Step.CONFIGURE, device, reason));
                }
                // Another program took the device between our finding it free and attaching it: find another.
            }
        }
        throw new Failure("no loop device could be attached to " + file + " in " + attempts
                + " attempts: other programs took each one first", new Why(Step.ALL_TAKEN, null, null));
    }

    /**
     * Detaches {@code device}; one whose filesystem is still mounted (lazily unmounted, or in use) is freed by the
     * kernel when that ends, as {@code losetup --detach} does.
     *
     * @throws Failure naming the step that failed
     */
    public static void detach(String device) throws Failure {
        String unavailable = CLibrary.unavailable();
        if (unavailable != null) {
            throw new Failure(unavailable, new Why(Step.UNAVAILABLE, device, null));
        }
        int fd = open(device, O_RDWR | O_CLOEXEC);
        try {
            CLibrary.ioctl(fd, LOOP_CLR_FD, 0L);
        } catch (LastErrorException e) {
            String reason = CLibrary.strerror(e.getErrorCode());
            throw new Failure("cannot detach " + device + ": " + reason, new Why(Step.DETACH, device, reason));
        } finally {
            closeQuietly(fd);
        }
    }

    private static int open(String path, int flags) throws Failure {
        try {
            return CLibrary.open(path, flags, 0);
        } catch (LastErrorException e) {
            throw openFailure(path, e);
        }
    }

    private static Failure openFailure(String path, LastErrorException e) {
        String reason = CLibrary.strerror(e.getErrorCode());
        return new Failure("cannot open " + path + ": " + reason,
                new Why(Step.OPEN, path.matches("/dev/loop[0-9]+") ? path : null, reason));
    }

    private static void closeQuietly(int fd) {
        try {
            CLibrary.close(fd);
        } catch (LastErrorException e) {
            // nothing was written through it
        }
    }

    private static void pause() throws Failure {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Failure f = new Failure("interrupted while attaching a loop device", new Why(Step.INTERRUPTED, null, null));
            f.initCause(e);
            throw f;
        }
    }
}

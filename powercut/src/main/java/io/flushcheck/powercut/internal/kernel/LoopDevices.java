package io.flushcheck.powercut.internal.kernel;

import io.flushcheck.storage.LoopControl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Loop devices attached and detached by the kernel's own ioctls ({@link LoopControl}), as losetup does them but
 * without a process per call: a power-cut cycle attaches and detaches several, and each losetup costs
 * several milliseconds more than the ioctl it makes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LoopDevices {

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
        try (LoopControl.Attached attached = LoopControl.attach(file, directIo ? LoopControl.DIRECT_IO : 0, ATTEMPTS)) {
            return attached.device();
        } catch (LoopControl.Failure e) {
            if (e.why().step() == LoopControl.Step.NO_FREE_DEVICE) {
                throw new NoFreeLoopDevice(e.getMessage());
            }
            throw e;
        }
    }

    /**
     * Detaches {@code device}; one whose filesystem is still mounted (lazily unmounted, or in use) is
     * freed by the kernel when that ends, as {@code losetup --detach} does.
     */
    public static void detach(String device) throws IOException {
        LoopControl.detach(device);
    }

    /** {@code device}'s write cache mode as sysfs says it ({@code write back}, {@code write through}), or "unknown". */
    public static String writeCacheMode(String device) {
        return LoopControl.writeCacheMode(device);
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

    /** The kernel has no free loop device to give. */
    public static final class NoFreeLoopDevice extends IOException {
        private static final long serialVersionUID = 1L;

        NoFreeLoopDevice(String message) {
            super(message);
        }
    }
}

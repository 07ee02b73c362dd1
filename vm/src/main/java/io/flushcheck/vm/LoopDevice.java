package io.flushcheck.vm;

import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.LoopControl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A loop device made for one guest's disk, whose {@code /sys/block/loopN/stat} counts exactly what QEMU
 * sent to the host's storage: nothing else uses it. Attached with the kernel's autoclear flag in the same
 * call ({@code LOOP_CONFIGURE}, Linux 5.8), while this object holds it open: when the last opener closes it
 * (this JVM, and QEMU), the kernel detaches it, even after a SIGKILL of both. losetup cannot set the flag.
 */
final class LoopDevice implements AutoCloseable {

    private static final int ATTEMPTS = 20;

    private final String name;
    private final LoopControl.Attached attached;

    private LoopDevice(LoopControl.Attached attached) {
        this.attached = attached;
        this.name = Path.of(attached.device()).getFileName().toString();
    }

    /** Attaches {@code file} to a free loop device. */
    static LoopDevice attach(Path file) {
        try {
            return new LoopDevice(LoopControl.attach(file, LoopControl.AUTOCLEAR, ATTEMPTS));
        } catch (LoopControl.Failure e) {
            LoopControl.Why why = e.why();
            throw new IllegalStateException(switch (why.step()) {
                case NO_FREE_DEVICE -> "cannot find a free loop device (LOOP_CTL_GET_FREE; at most"
                        + " /sys/module/loop/parameters/max_loop): " + why.reason();
                case CONFIGURE -> "cannot attach " + file + " to " + why.device() + " (LOOP_CONFIGURE): " + why.reason();
                case ALL_TAKEN -> "cannot attach " + file + ": every free loop device was taken by others, " + ATTEMPTS
                        + " times";
                default -> e.getMessage();
            }, e);
        }
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
        attached.detach();
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

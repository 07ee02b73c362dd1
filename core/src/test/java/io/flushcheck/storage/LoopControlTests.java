package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real loop devices of the machine's kernel, attached to a file and detached again (root only). */
class LoopControlTests {

    @TempDir
    Path dir;

    @BeforeEach
    void needsLoopDevices() {
        Requirements.requireRoot();
        Requirements.require(Files.exists(Path.of("/dev/loop-control")), "/dev/loop-control (modprobe loop)");
    }

    private Path image() throws IOException {
        Path file = dir.resolve("image");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(1 << 20);
        }
        return file;
    }

    @Test
    void aFileIsAttachedToAFreeDeviceAndDetachedByName() throws Exception {
        Path file = image();
        String device;
        try (LoopControl.Attached attached = LoopControl.attach(file, 0, 20)) {
            device = attached.device();
        }
        try {
            assertThat(device).matches("/dev/loop[0-9]+");
            assertThat(backingFile(device)).as("without autoclear, closing the descriptor leaves it attached")
                    .isEqualTo(file.toString());
        } finally {
            LoopControl.detach(device);
        }
        assertThat(released(device, file)).as("%s detached", device).isTrue();
    }

    /**
     * A device's write cache mode outlives its attachment: one another program left {@code write through} would pass
     * no flush to the file. The device the kernel gives first is found by attaching it, left so once free, as such a
     * program leaves it, and attached again; its mode is set back to what it was after.
     */
    @Test
    void aDeviceAnotherProgramLeftWriteThroughIsAttachedWriteBack() throws Exception {
        Path file = image();
        String device;
        try (LoopControl.Attached first = LoopControl.attach(file, 0, 20)) {
            device = first.device();
            first.detach();
        }
        assertThat(released(device, file)).as("%s detached", device).isTrue();
        Path mode = Path.of("/sys/block", Path.of(device).getFileName().toString(), "queue", "write_cache");
        String was = LoopControl.writeCacheMode(device);
        try {
            Files.writeString(mode, "write through");
            assertThat(LoopControl.writeCacheMode(device)).as("%s left so", device).isEqualTo("write through");
            try (LoopControl.Attached again = LoopControl.attach(file, LoopControl.AUTOCLEAR, 20)) {
                Requirements.require(again.device().equals(device), device + " free for the second attach (another"
                        + " program took it; " + again.device() + " was given)");
                assertThat(LoopControl.writeCacheMode(device)).as("%s's write cache mode once attached", device)
                        .isEqualTo("write back");
            }
        } finally {
            Files.writeString(mode, was);
        }
    }

    @Test
    void anAutoclearDeviceIsDetachedWhenItsLastOpenerClosesIt() throws Exception {
        Path file = image();
        LoopControl.Attached attached = LoopControl.attach(file, LoopControl.AUTOCLEAR, 20);
        String device = attached.device();
        try {
            assertThat(backingFile(device)).isEqualTo(file.toString());
        } finally {
            attached.close();
        }
        boolean released = released(device, file);
        if (!released) {
            LoopControl.detach(device);
        }
        assertThat(released).as("%s detached by its last close", device).isTrue();
    }

    @Test
    void aMissingFileIsRefusedWithTheStepAndTheKernelsReason() {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> LoopControl.attach(missing, 0, 20))
                .isInstanceOfSatisfying(LoopControl.Failure.class, f -> assertThat(f.why())
                        .isEqualTo(new LoopControl.Why(LoopControl.Step.OPEN, null, "No such file or directory")))
                .hasMessage("cannot open " + missing + ": No such file or directory");
    }

    private static String backingFile(String device) {
        try {
            return Files.readString(Path.of("/sys/block", Path.of(device).getFileName().toString(), "loop",
                    "backing_file")).trim();
        } catch (IOException e) {
            return null;
        }
    }

    /** Whether {@code device} lets go of {@code file} within two seconds (the kernel detaches in the background). */
    private static boolean released(String device, Path file) throws InterruptedException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (file.toString().equals(backingFile(device))) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}

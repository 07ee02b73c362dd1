package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
     * no flush to the file. Every free device is left so here, as such a program leaves them, and set back after.
     */
    @Test
    void aDeviceAnotherProgramLeftWriteThroughIsAttachedWriteBack() throws Exception {
        List<Path> left = new ArrayList<>();
        try {
            try (DirectoryStream<Path> devices = Files.newDirectoryStream(Path.of("/sys/block"), "loop*")) {
                for (Path d : devices) {
                    Path mode = d.resolve("queue").resolve("write_cache");
                    if (!Files.exists(d.resolve("loop").resolve("backing_file")) && Files.isWritable(mode)) {
                        Files.writeString(mode, "write through");
                        left.add(mode);
                    }
                }
            }
            Requirements.require(!left.isEmpty(), "a free loop device whose write cache mode can be set");
            try (LoopControl.Attached attached = LoopControl.attach(image(), LoopControl.AUTOCLEAR, 20)) {
                Path mode = Path.of("/sys/block", Path.of(attached.device()).getFileName().toString(), "queue",
                        "write_cache");
                assertThat(Files.readString(mode).trim()).as("%s's write cache mode once attached", attached.device())
                        .isEqualTo("write back");
            }
        } finally {
            for (Path mode : left) {
                Files.writeString(mode, "write back");
            }
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

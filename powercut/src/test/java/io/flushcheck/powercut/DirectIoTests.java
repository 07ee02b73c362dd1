package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/** The loop device with direct I/O: the kernel really has it on, and syncs still reach the drive. */
@ResourceLock(SimulatedPowerLoss.LOCK)
class DirectIoTests {

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static Path work(String name) {
        return Path.of("/dev/shm", "flushcheck-dio-" + name + "-" + ProcessHandle.current().pid());
    }

    @Test
    void directIoIsOnInTheKernelAndWhatWasSyncedSurvives() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).directIo(true)
                .create(work("on"))) {
            String dio = Path.of("/sys/block", Path.of(disk.loopDevice()).getFileName().toString(), "loop", "dio").toString();
            assertThat(Files.readString(Path.of(dio)).trim()).as(dio).isEqualTo("1");
            assertThat(disk.directIo()).isTrue();
            long before = disk.flushes();
            try (FileChannel ch = FileChannel.open(disk.path().resolve("synced"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap("kept".getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            assertThat(disk.flushes()).as("an fsync reaches the drive through direct I/O").isGreaterThan(before);
            Files.writeString(disk.path().resolve("unsynced"), "lost");
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("synced"))).isEqualTo("kept");
            assertThat(survivor.resolve("unsynced")).doesNotExist();
        }
    }

    @Test
    void withoutItTheKernelReadsTheDriveThroughThePageCache() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).create(work("off"))) {
            assertThat(disk.directIo()).isFalse();
        }
    }
}

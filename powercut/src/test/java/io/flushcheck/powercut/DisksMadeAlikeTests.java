package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Disks of one filesystem, size and mkfs options start from the image the first one's mkfs made, so each
 * costs a mount instead of a mkfs: each is still a filesystem of its own, and other options make another.
 */
class DisksMadeAlikeTests {

    private static final long SIZE = 32L << 20;

    private static Path work(String name) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return Path.of("target", "powercut", name).toAbsolutePath();
    }

    /** ext4's UUID (s_uuid, 0x68 into the superblock at 1024), read from the disk's loop device. */
    private static String ext4Uuid(SimulatedDisk disk) throws IOException {
        try (RandomAccessFile device = new RandomAccessFile(disk.loopDevice(), "r")) {
            byte[] uuid = new byte[16];
            device.seek(1024 + 0x68);
            device.readFully(uuid);
            return HexFormat.of().formatHex(uuid);
        }
    }

    @Test
    void disksMadeAlikeShareTheFirstOnesMkfsButNoWriteAndOtherOptionsMakeAnotherFilesystem() throws IOException {
        Path root = work("alike");
        try (SimulatedDisk first = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE)
                .create(root.resolve("first"));
             SimulatedDisk second = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE)
                     .create(root.resolve("second"));
             SimulatedDisk small = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE)
                     .mkfsOptions("-b", "2048").create(root.resolve("small"))) {
            assertThat(ext4Uuid(second)).as("made from the first one's image, not by mkfs").isEqualTo(ext4Uuid(first));
            assertThat(ext4Uuid(small)).as("other mkfs options: a filesystem of its own").isNotEqualTo(ext4Uuid(first));
            assertThat(Files.getFileStore(small.path()).getBlockSize()).isEqualTo(2048);
            assertThat(Files.getFileStore(second.path()).getBlockSize())
                    .isEqualTo(Files.getFileStore(first.path()).getBlockSize()).isNotEqualTo(2048);

            try (var s = Files.list(small.path())) {
                assertThat(s).as("a disk whose filesystem mkfs made (ext4's lost+found removed) is empty").isEmpty();
            }
            Files.writeString(first.path().resolve("only-in-first"), "1", StandardCharsets.UTF_8);
            Files.writeString(second.path().resolve("only-in-second"), "2", StandardCharsets.UTF_8);
            try (var s = Files.list(second.path())) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactly("only-in-second");
            }
            try (var s = Files.list(first.path())) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactly("only-in-first");
            }
            Path survivor = first.cutPower();
            assertThat(survivor.resolve("only-in-second")).doesNotExist();
            try (SimulatedDisk third = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE)
                    .create(root.resolve("third"))) {
                try (var s = Files.list(third.path())) {
                    assertThat(s).as("a disk made after others were written on is empty").isEmpty();
                }
            }
        }
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(root.toString());
    }

    @Test
    void xfsDisksMadeAlikeAreMountedTogetherDespiteTheirOneUuid() throws IOException {
        Path root = work("alike-xfs");
        Requirements.requireCommand("mkfs.xfs", "xfsprogs");
        long size = SimulatedDisk.minimumSizeBytes("xfs");
        try (SimulatedDisk first = SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs").sizeBytes(size)
                .create(root.resolve("first"));
             SimulatedDisk second = SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs").sizeBytes(size)
                     .create(root.resolve("second"))) {
            SimulatedPowerLossExtensionTests.append(second.path().resolve("data"), "x", true);
            assertThat(first.path().resolve("data")).doesNotExist();
            assertThat(Files.readString(second.cutPower().resolve("data"))).isEqualTo("x");
        }
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk made option by option: every option reaches the disk, and an option the chosen model does not take is
 * refused by name before anything is made.
 */
class SimulatedDiskBuilderTests {

    @TempDir
    Path tmp;

    private static void writeSynced(Path file, String text) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    @Test
    void theFileModelRefusesTheFilesystem() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.FILE).fs("xfs").create(tmp.resolve("disk")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("fs: the block model's");
        assertThat(tmp.resolve("disk")).as("refused before anything is made").doesNotExist();
    }

    @Test
    void theFileModelRefusesMkfsOptions() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.FILE).mkfsOptions("-m", "0").create(tmp))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("mkfsOptions: the block model's");
    }

    @Test
    void theFileModelRefusesDirectIo() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.FILE).directIo(true).create(tmp))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("directIo: the block model's");
    }

    @Test
    void theFileModelRefusesAnAtomicWriteUnitAndNamesEveryBlockOptionGiven() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.FILE).atomicWriteBytes(512).fs("ext4").create(tmp))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("atomicWriteBytes, fs: the block model's, not the file model's");
    }

    @Test
    void theBlockModelRefusesFileRules() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).rules(FileRules.POSIX).create(tmp))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rules: the file model's, not the block model's, which has its filesystem's rules");
    }

    @Test
    void autoRefusesTheOptionsOfTheModelItDidNotChooseAndSaysWhy() {
        boolean block = DiskModel.AUTO.resolved() == DiskModel.BLOCK;
        SimulatedDiskBuilder builder = SimulatedDisk.builder();
        SimulatedDiskBuilder wrong = block ? builder.rules(FileRules.POSIX) : builder.fs("xfs");
        assertThatThrownBy(() -> wrong.create(tmp)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(block ? "rules:" : "fs:")
                .hasMessageContaining("(AUTO chose it here: " + DiskModel.autoReason() + ")");
    }

    @Test
    void anAtomicWriteUnitNoDriveHasIsRefused() {
        assertThatThrownBy(() -> SimulatedDisk.builder().atomicWriteBytes(3000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("atomicWriteBytes:")
                .hasMessageContaining("512, 1024, 2048 or 4096");
    }

    @Test
    void aSizeOfNothingIsRefused() {
        assertThatThrownBy(() -> SimulatedDisk.builder().sizeMiB(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sizeMiB:");
        assertThatThrownBy(() -> SimulatedDisk.builder().sizeBytes(-4096))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("sizeBytes:");
    }

    @Test
    void aDriveTheFilesystemsMkfsRefusesIsRefused() {
        assertThatThrownBy(() -> SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs").sizeMiB(64).create(tmp))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("xfs needs a drive of at least").hasMessageEndingWith("not 64 MiB");
    }

    @Test
    void aBlockDiskHasEveryOptionItWasBuiltWith() throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Path work = Path.of("target", "powercut", "built").toAbsolutePath();
        // -m 50 reserves half the blocks for root: seen from here as free space a user may not use.
        // tag::builder[]
        try (SimulatedDisk disk = SimulatedDisk.builder()
                .model(DiskModel.BLOCK)          // or FILE, or AUTO (the default)
                .fs("ext4").sizeMiB(64)
                .mkfsOptions("-m", "50")          // mkfs.ext4 -m 50 ... the device
                .directIo(false).atomicWriteBytes(512)
                .create(work)) {
            // end::builder[]
            assertThat(disk.model()).isEqualTo(DiskModel.BLOCK);
            assertThat(disk.fsType()).isEqualTo("ext4");
            assertThat(disk.atomicWriteBytes()).isEqualTo(512);
            assertThat(disk.directIo()).isFalse();
            FileStore store = Files.getFileStore(disk.path());
            assertThat(store.getTotalSpace()).as("64 MiB, less ext4's own").isBetween(40L << 20, 64L << 20);
            assertThat(store.getUsableSpace()).as("mkfs's -m 50 reached mkfs")
                    .isLessThan(store.getUnallocatedSpace() * 6 / 10);
            writeSynced(disk.path().resolve("kept"), "synced");
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("kept"))).isEqualTo("synced");
        }
        assertThat(work).doesNotExist();
    }

    @Test
    void aFileDiskHasItsRulesAndItsSize() throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(DiskModel.root() || SimulatedDisk.fusermount() != null, "fusermount3 or fusermount");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(1).rules(FileRules.POSIX)
                .create(tmp.resolve("disk"))) {
            assertThat(disk.model()).isEqualTo(DiskModel.FILE);
            assertThat(disk.fileRules()).isEqualTo(FileRules.POSIX);
            Path big = disk.path().resolve("big");
            assertThatThrownBy(() -> Files.write(big, new byte[2 << 20])).as("2 MiB on a 1 MiB disk")
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            Files.deleteIfExists(big);
            writeSynced(disk.path().resolve("small"), "fits");
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("small"))).isEqualTo("fits");
        }
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file-level model through the kernel: real calls on a FUSE mount of flushcheck's tree, and what a cut
 * leaves of them. A file's data is durable at its fsync, a name at its directory's.
 */
class FileModelTests {

    @TempDir
    Path tmp;

    private static void write(Path file, String text, boolean sync) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            if (sync) {
                ch.force(true);
            }
        }
    }

    /** fsync of a directory, as a program does it: open the directory and fsync the descriptor. */
    static void syncDir(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    @Test
    void aFileSurvivesWithWhatItsFsyncMadeDurableAndItsNameWithItsDirectorysFsync() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.createFiles(tmp.resolve("disk"))) {
            assertThat(disk.model()).isEqualTo(DiskModel.FILE);
            Path dir = disk.path();
            write(dir.resolve("a"), "first", true);
            syncDir(dir);
            try (FileChannel ch = FileChannel.open(dir.resolve("a"), StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap(" and more".getBytes(StandardCharsets.UTF_8)));
            }
            write(dir.resolve("b"), "synced, but not its name", true);
            Files.createDirectory(dir.resolve("sub"));
            assertThat(Files.readString(dir.resolve("a"))).isEqualTo("first and more");
            assertThat(disk.unflushedBytes()).isEqualTo(" and more".length());
            long flushes = disk.flushes();
            assertThat(flushes).isEqualTo(3);

            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("a"))).isEqualTo("first");
            assertThat(survivor.resolve("b")).doesNotExist();
            assertThat(survivor.resolve("sub")).doesNotExist();
            assertThat(disk.cuts()).hasSize(1);
            assertThat(disk.cuts().get(0).unflushedBytes()).isEqualTo(" and more".length());
            assertThat(disk.path()).doesNotExist();
        }
        assertThat(tmp.resolve("disk")).doesNotExist();
    }

    @Test
    void writeThenRenameWithoutTheDirectorysFsyncLosesTheRename() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.createFiles(tmp.resolve("disk"))) {
            Path dir = disk.path();
            write(dir.resolve("store"), "old", true);
            syncDir(dir);
            write(dir.resolve("store.tmp"), "new", true);
            Files.move(dir.resolve("store.tmp"), dir.resolve("store"), StandardCopyOption.ATOMIC_MOVE);
            assertThat(Files.readString(dir.resolve("store"))).isEqualTo("new");
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("store"))).as("the rename was never made durable").isEqualTo("old");
        }
        try (SimulatedDisk disk = SimulatedDisk.createFiles(tmp.resolve("disk2"))) {
            Path dir = disk.path();
            write(dir.resolve("store"), "old", true);
            syncDir(dir);
            write(dir.resolve("store.tmp"), "new", true);
            Files.move(dir.resolve("store.tmp"), dir.resolve("store"), StandardCopyOption.ATOMIC_MOVE);
            syncDir(dir);
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("store"))).isEqualTo("new");
            assertThat(survivor.resolve("store.tmp")).doesNotExist();
        }
    }

    /** SQLite maps its WAL index: a shared mapping of a file on the model, written and forced, is durable. */
    @Test
    void aMappedFileWrittenAndForcedIsDurable() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.createFiles(tmp.resolve("disk"))) {
            Path f = disk.path().resolve("mapped");
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                ch.truncate(0);
                ch.write(ByteBuffer.allocate(8192), 0);
                ch.force(true);
                java.nio.MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, 8192);
                m.put(4096, "mapped".getBytes(StandardCharsets.UTF_8));
                m.force();
            }
            syncDir(disk.path());
            byte[] survived = Files.readAllBytes(disk.cutPower().resolve("mapped"));
            assertThat(new String(survived, 4096, 6, StandardCharsets.UTF_8)).isEqualTo("mapped");
        }
    }

    @Test
    void afterTheCutTheMountIsGoneAndWritesThereFail() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.createFiles(tmp.resolve("disk"))) {
            Path dir = disk.path();
            disk.cutPower();
            assertThatThrownBy(() -> write(dir.resolve("late"), "x", false)).isInstanceOf(IOException.class);
        }
    }
}

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
import java.util.List;
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

    /** About the POSIX floor, so under {@link FileRules#POSIX}; the default's counterpart follows. */
    @Test
    void underPosixRulesAFileSurvivesWithWhatItsFsyncMadeDurableAndItsNameWithItsDirectorysFsync() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).rules(FileRules.POSIX)
                .create(tmp.resolve("disk"))) {
            assertThat(disk.model()).isEqualTo(DiskModel.FILE);
            assertThat(disk.fileRules()).isEqualTo(FileRules.POSIX);
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
            assertThat(disk.cuts().get(0).lost()).as("b's name, made before b's fsync")
                    .contains("the POSIX rules lost 1 name change", "/b", "ext4, xfs and btrfs").doesNotContain("/sub");
            assertThat(disk.path()).doesNotExist();
        }
        assertThat(tmp.resolve("disk")).doesNotExist();
    }

    @Test
    void byDefaultAnyFsyncMakesEveryEarlierNameDurableAsExt4sJournalDoes() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("disk"))) {
            assertThat(disk.fileRules()).isEqualTo(FileRules.JOURNALED);
            Path dir = disk.path();
            Files.createDirectories(dir.resolve("store/index"));
            write(dir.resolve("unsynced"), "never synced", false);
            write(dir.resolve("store/index/records"), "acknowledged", true); // no directory is ever synced
            Files.createDirectory(dir.resolve("sub"));
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("store/index/records"))).isEqualTo("acknowledged");
            assertThat(Files.size(survivor.resolve("unsynced"))).as("its name committed, not its data: empty, as on ext4")
                    .isZero();
            assertThat(survivor.resolve("sub")).as("made after the last fsync").doesNotExist();
            assertThat(disk.cuts().get(0).lost()).contains("no syncfs(2) or sync(2)").doesNotContain("POSIX");
        }
    }

    /**
     * Linux sends FUSE_SYNCFS (opcode 50, protocol 7.34) only to a server that set {@code fc->sync_fs}, which only
     * virtiofs does: a syncfs(2) or sync(2) on the file model's mount reaches no server, and the model sees no flush.
     */
    @Test
    void aSyncfsOrSyncReachesNoFuseServerAndTheModelSaysSo() throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("disk"))) {
            Path dir = disk.path();
            write(dir.resolve("data"), "written, then syncfs", false);
            long before = disk.flushes();
            for (List<String> command : List.of(List.of("sync", "-f", dir.resolve("data").toString()), List.of("sync"))) {
                Process p = new ProcessBuilder(command).inheritIO().start();
                assertThat(p.waitFor()).as(String.join(" ", command)).isZero();
            }
            assertThat(disk.flushes()).as("syncfs(2) and sync(2) reached the server").isEqualTo(before);
            disk.cutPower();
            assertThat(disk.cuts().get(0).toString()).contains("the file model sees no syncfs(2) or sync(2)");
        }
    }

    @Test
    void writeThenRenameWithoutTheDirectorysFsyncLosesTheRename() throws IOException {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("disk"))) {
            Path dir = disk.path();
            write(dir.resolve("store"), "old", true);
            syncDir(dir);
            write(dir.resolve("store.tmp"), "new", true);
            Files.move(dir.resolve("store.tmp"), dir.resolve("store"), StandardCopyOption.ATOMIC_MOVE);
            assertThat(Files.readString(dir.resolve("store"))).isEqualTo("new");
            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("store"))).as("the rename was never made durable").isEqualTo("old");
        }
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("disk2"))) {
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
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("disk"))) {
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
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("disk"))) {
            Path dir = disk.path();
            disk.cutPower();
            assertThatThrownBy(() -> write(dir.resolve("late"), "x", false)).isInstanceOf(IOException.class);
        }
    }
}

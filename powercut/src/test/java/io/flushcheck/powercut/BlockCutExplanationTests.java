package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.nio.file.ExtendedOpenOption;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A block-model cut says what it lost by file ({@link PowerCut#discarded()}): names and files older after the
 * cut than in the interrupted filesystem, with the sync that would have kept them, and the bytes the drive
 * discarded placed in their files or the journal. Real ext4 and xfs, cut by the real kernel's writes.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class BlockCutExplanationTests {

    @TempDir
    Path tmp;

    private SimulatedDisk disk(String fs) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(io.flushcheck.powercut.internal.kernel.Filesystems.find("mkfs." + fs) != null, "mkfs." + fs);
        long mib = switch (fs) {
            case "xfs" -> 320;
            case "btrfs" -> 128;
            default -> 64;
        };
        return SimulatedDisk.builder().model(DiskModel.BLOCK).fs(fs).sizeBytes(mib << 20).create(tmp.resolve("disk"));
    }

    /** {@code data/config}, durable with its name: its contents, its fsync, its directory's fsync. */
    private static Path durableConfig(SimulatedDisk disk, String text) throws IOException {
        Path data = Files.createDirectory(disk.path().resolve("data"));
        Path config = data.resolve("config");
        PosixCalls.writeSynced(config, text);
        PosixCalls.syncDirectory(data);
        PosixCalls.syncDirectory(disk.path());
        return config;
    }

    @ParameterizedTest
    @ValueSource(strings = {"ext4", "xfs", "btrfs"})
    void aWriteAndRenameWithoutSyncsNamesTheFileAndTheDirectoryNotSynced(String fs) throws IOException {
        try (SimulatedDisk disk = disk(fs)) {
            Path config = durableConfig(disk, "version 1\n");
            Path temporary = config.resolveSibling("config.tmp");
            Files.writeString(temporary, "version 2, longer\n");
            Files.move(temporary, config, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Path survivor = disk.cutPower();
            PowerCut cut = disk.cuts().get(0);
            System.out.println(fs + ", write and rename without syncs: " + cut.discarded());
            assertThat(Files.readString(survivor.resolve("data/config"))).isEqualTo("version 1\n");
            assertThat(cut.discarded()).anySatisfy(line -> assertThat(line)
                    .startsWith("data/config is inode ")
                    .contains("(10 bytes) again, not ")
                    .contains("(18 bytes)")
                    .endsWith("the rename or creation that replaced it not durable, no sync of directory data completed after it"));
        }
    }

    @Test
    void aNewFileNeverSyncedIsNamedMissingWithItsDirectory() throws IOException {
        try (SimulatedDisk disk = disk("ext4")) {
            durableConfig(disk, "version 1\n");
            Files.writeString(disk.path().resolve("data/new"), "never synced");
            Files.createDirectories(disk.path().resolve("logs/2026"));
            Files.writeString(disk.path().resolve("logs/2026/a.log"), "in a directory never synced");
            disk.cutPower();
            List<String> lines = disk.cuts().get(0).discarded();
            System.out.println("ext4, new names never synced: " + lines);
            assertThat(lines).contains(
                    "data/new (12 bytes) missing: its creation or rename not durable, no sync of directory data completed after it",
                    "logs/ missing: its creation or rename not durable, no sync of the top directory completed after it");
            assertThat(lines).noneMatch(line -> line.startsWith("logs/2026"));
        }
    }

    @Test
    void bytesThatReachedTheDriveWithNoFlushAfterArePlacedInTheirFile() throws IOException {
        try (SimulatedDisk disk = disk("ext4")) {
            Path log = disk.path().resolve("log");
            PosixCalls.writeSynced(log, "x".repeat(64 << 10));
            PosixCalls.syncDirectory(disk.path());
            // O_DIRECT: the overwrite goes to the drive now, past the page cache, and no flush follows it.
            try (FileChannel ch = FileChannel.open(log, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
                ByteBuffer block = ByteBuffer.allocateDirect(2 * 8192).alignedSlice(4096);
                block.limit(8192);
                block.put("y".repeat(8192).getBytes(StandardCharsets.US_ASCII)).flip();
                ch.write(block, 16384);
            }
            Path survivor = disk.cutPower();
            List<String> lines = disk.cuts().get(0).discarded();
            System.out.println("ext4, an O_DIRECT overwrite with no flush: " + lines);
            assertThat(Files.readString(survivor.resolve("log"))).doesNotContain("y");
            // The drive's 4 KiB sectors hold this ext4's 1 KiB blocks: the line may name up to a sector more on each side.
            assertThat(lines).anySatisfy(line -> {
                java.util.regex.Matcher m = java.util.regex.Pattern
                        .compile("sectors holding (\\d+) bytes of log at offset (\\d+) discarded: written, no flush completed after them")
                        .matcher(line);
                assertThat(m.matches()).as(line).isTrue();
                long bytes = Long.parseLong(m.group(1));
                long offset = Long.parseLong(m.group(2));
                assertThat(offset).isBetween(16384L - 4096, 16384L);
                assertThat(offset + bytes).isBetween(16384L + 8192, 16384L + 8192 + 4096);
            });
        }
    }

    @Test
    void aCutDuringTheJournalsCommitNamesTheJournal() throws IOException {
        try (SimulatedDisk disk = disk("ext4")) {
            long base = disk.flushes();
            disk.cutDuringFlush(base + 1, 1);
            Files.createDirectory(disk.path().resolve("d"));
            try {
                PosixCalls.syncDirectory(disk.path()); // the commit's flush: the power goes as it arrives
            } catch (IllegalStateException failedAsThePowerWent) {
                // EIO: the sync did not complete
            }
            disk.cutPower();
            List<String> lines = disk.cuts().get(0).discarded();
            System.out.println("ext4, a cut during the journal's commit: " + lines);
            assertThat(lines).anyMatch(line -> line.matches("\\d+ bytes of the journal discarded: written, no flush completed after them"));
        }
    }

    @Test
    void aCutThatLostNothingSaysNothing() throws IOException {
        try (SimulatedDisk disk = disk("ext4")) {
            durableConfig(disk, "version 1\n");
            disk.cutPower();
            assertThat(disk.cuts().get(0).discarded()).isEmpty();
        }
    }
}

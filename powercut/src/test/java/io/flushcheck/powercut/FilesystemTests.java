package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ext4, xfs and btrfs on the simulated drive: made, mounted, cut with a file still open, and the survivor
 * mounted beside the original, its journal or log replayed (the kernel says so), with what was synced.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class FilesystemTests {

    /** What each filesystem's kernel code logs when it replays a journal or log at mount. */
    private static String replayMessage(String fs) {
        return switch (fs) {
            case "ext4" -> "recovery complete";
            case "xfs" -> "Starting recovery";
            case "btrfs" -> "start tree-log replay";
            default -> throw new IllegalArgumentException(fs);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"ext4", "xfs", "btrfs"})
    void aCutSurvivorIsMountedWithItsLogReplayedAndKeepsWhatWasSynced(String fs) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.requireCommand(Filesystems.tool(fs), Filesystems.debianPackage(fs));
        Requirements.requireCommand("dmesg", "util-linux");
        Path work = Path.of("/dev/shm", "flushcheck-fs-" + fs + "-" + ProcessHandle.current().pid());
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).fs(fs).create(work)) {
            assertThat(Shell.run("findmnt", "-n", "-o", "FSTYPE", disk.path().toString()).trim()).isEqualTo(fs);
            try (var s = Files.list(disk.path())) {
                assertThat(s).as("a fresh filesystem is empty").isEmpty();
            }
            if (!fs.equals("xfs")) { // xfs's mount writes its log without a flush, as on any drive
                assertThat(disk.unflushedBytes()).as("bytes a cut right after the disk is made would discard").isZero();
            }
            Path synced = disk.path().resolve("synced");
            try (FileChannel ch = FileChannel.open(synced, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap("kept".getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            try (FileChannel held = FileChannel.open(disk.path().resolve("held-open"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                held.write(ByteBuffer.wrap("never synced".getBytes(StandardCharsets.UTF_8)));
                String[] before = Shell.run("dmesg").split("\n");
                String lastBefore = before[before.length - 1];

                Path survivor = disk.cutPower();

                assertThat(Files.readString(survivor.resolve("synced"))).isEqualTo("kept");
                assertThat(survivor.resolve("held-open")).as("never synced").doesNotExist();
                String device = Shell.run("findmnt", "-n", "-o", "SOURCE", survivor.toString()).trim();
                assertThat(Shell.run("findmnt", "-n", "-o", "FSTYPE", survivor.toString()).trim()).isEqualTo(fs);
                List<String> log = List.of(Shell.run("dmesg").split("\n"));
                String name = Path.of(device).getFileName().toString();
                // The kernel's ring buffer is full: what came after the last line seen before the cut
                assertThat(log.subList(log.lastIndexOf(lastBefore) + 1, log.size()))
                        .as("the kernel's log for %s since the cut", name)
                        .anyMatch(l -> l.contains(name) && l.contains(replayMessage(fs)));
                Files.writeString(survivor.resolve("after"), "the survivor is writable");
            }
        }
        assertThat(work).doesNotExist();
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(work.toString());
    }
}

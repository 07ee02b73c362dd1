package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;

/** A real ext4 on the simulated drive: what a sync made durable survives a cut, and nothing else is promised. */
class SimulatedDiskTests {

    private static final long SIZE = 64L << 20;

    private static Path work(String name) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return Path.of("target", "powercut", name).toAbsolutePath();
    }

    private static void write(Path file, String text, boolean sync) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            if (sync) {
                ch.force(true);
            }
        }
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    @Test
    void whatASyncMadeDurableSurvivesACutAndWhatWasNeverSyncedIsGone() throws IOException {
        Path work = work("flushed");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE).create(work)) {
            Path fs = disk.path();
            try (var s = Files.list(fs)) {
                assertThat(s).as("a fresh filesystem is empty").isEmpty();
            }
            long before = disk.flushes();
            write(fs.resolve("synced"), "kept", true);
            syncDirectory(fs);
            assertThat(disk.flushes()).as("fsync reached the drive as flushes").isGreaterThan(before);
            write(fs.resolve("unsynced"), "lost", false);

            Path survivor = disk.cutPower();
            assertThat(Files.readString(survivor.resolve("synced"))).isEqualTo("kept");
            assertThat(survivor.resolve("unsynced")).doesNotExist();
            assertThatThrownBy(() -> write(fs.resolve("after"), "x", true)).isInstanceOf(IOException.class);
        }
        assertNothingLeft(work);
    }

    @Test
    void writtenButUnflushedDataIsCountedAndASubsetCutIsReproducibleBySeed() throws IOException {
        Path work = work("subset");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE).create(work)) {
            try (FileChannel ch = FileChannel.open(disk.path().resolve("data"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.DSYNC)) {
                ch.write(ByteBuffer.allocate(64 << 10));
            }
            assertThat(disk.unflushedBytes()).isZero();
            Path survivor = disk.cutPower(7);
            assertThat(Files.size(survivor.resolve("data"))).isEqualTo(64 << 10);
        }
        assertNothingLeft(work);
    }

    /**
     * The kernel zeroes a fresh ext4's inode tables in the background, starting within 5 s of the mount
     * (ext4's lazy init): on the simulated drive those would be writes and a flush that no test made.
     */
    @Test
    void aFreshDiskLeftIdleReceivesNoWritesAndNoFlushes() throws Exception {
        Path work = work("idle");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE).create(work)) {
            Path stat = Path.of("/sys/block", Path.of(disk.loopDevice()).getFileName().toString(), "stat");
            long flushes = disk.flushes();
            long written = sectorsWritten(stat);
            long deadline = System.nanoTime() + 8_000_000_000L;
            while (System.nanoTime() < deadline) {
                assertThat(sectorsWritten(stat)).as("512-byte sectors written to an idle disk's loop device since it was made")
                        .isEqualTo(written);
                assertThat(disk.flushes()).as("flushes of an idle disk").isEqualTo(flushes);
                Thread.sleep(250);
            }
        }
        assertNothingLeft(work);
    }

    /** Field 7 of /sys/block/DEV/stat: sectors written (Documentation/block/stat.rst). */
    private static long sectorsWritten(Path stat) throws IOException {
        return Long.parseLong(Files.readString(stat).trim().split("\\s+")[6]);
    }

    private static void assertNothingLeft(Path work) throws IOException {
        assertThat(work).doesNotExist();
        String mounts = Files.readString(Path.of("/proc/self/mountinfo"));
        assertThat(mounts).doesNotContain(work.toString());
        String loops = io.flushcheck.testing.Shell.run("losetup", "--list", "--noheadings", "--output", "BACK-FILE");
        assertThat(loops).doesNotContain(work.toString());
    }
}

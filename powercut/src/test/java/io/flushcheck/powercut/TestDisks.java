package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.powercut.internal.sys.PageCache;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The disks the failing-sync tests run on, each skipped where its model cannot run (failed with
 * {@code flushcheck.missing-tool=fail}).
 */
final class TestDisks {

    private TestDisks() {
    }

    /** A 64 MiB ext4 on the block model, under {@code dir}. */
    static SimulatedDisk ext4(Path dir) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).create(dir.resolve("disk"));
    }

    /** A 128 MiB btrfs on the block model, under {@code dir}: data checksummed, one copy of data (SINGLE). */
    static SimulatedDisk btrfs(Path dir) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Filesystems.find("mkfs.btrfs") != null, "mkfs.btrfs (apt-get install btrfs-progs)");
        return SimulatedDisk.builder().model(DiskModel.BLOCK).fs("btrfs").sizeMiB(128).create(dir.resolve("disk"));
    }

    /** The smallest xfs on the block model mkfs.xfs makes, and 16 MiB, under {@code dir}. */
    static SimulatedDisk xfs(Path dir) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Filesystems.find("mkfs.xfs") != null, "mkfs.xfs (apt-get install xfsprogs)");
        return SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs")
                .sizeBytes(SimulatedDisk.minimumSizeBytes("xfs") + (16L << 20)).create(dir.resolve("disk"));
    }

    /** As {@link #ext4}, the loop device reading and writing the drive with direct I/O. */
    static SimulatedDisk ext4DirectIo(Path dir) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).directIo(true).create(dir.resolve("disk"));
    }

    /** What the file model needs: /dev/fuse, and without root fusermount3 or fuse 2's fusermount. */
    static void requireFileModel() {
        Requirements.requireFileModel();
    }

    /** A disk of the file model, under {@code dir}. */
    static SimulatedDisk files(Path dir) throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return SimulatedDisk.builder().model(DiskModel.FILE).create(dir.resolve("files"));
    }

    /**
     * Drops the clean cached pages of {@code file}, on a block model disk or survivor, and of the image under its
     * filesystem's loop device, so that the next read of the file reaches the drive: the loop device reads its image
     * through the page cache unless it does direct I/O. Only those two files' pages: the rest of the machine's cache,
     * other tests' included, stays (root's {@code drop_caches} would empty it all).
     */
    static void uncache(Path file) throws IOException {
        PageCache.drop(file, 0, 0);
        String device = Files.getFileStore(file).name(); // the mount's source: /dev/loopN
        String loop = Path.of(device).getFileName().toString();
        Path backing = Path.of("/sys/block", loop, "loop", "backing_file");
        if (!loop.startsWith("loop") || !Files.exists(backing)) {
            throw new IOException(file + " is not on a loop device but on " + device);
        }
        PageCache.drop(Path.of(Files.readString(backing).strip()), 0, 0);
    }
}

package io.flushcheck.powercut;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The disks the failing-sync tests run on, each skipped (or failed with CI=true) where its model cannot run. */
final class TestDisks {

    private TestDisks() {
    }

    /** A 64 MiB ext4 on the block model, under {@code dir}. */
    static SimulatedDisk ext4(Path dir) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).create(dir.resolve("disk"));
    }

    /** A disk of the file model, under {@code dir}. */
    static SimulatedDisk files(Path dir) throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return SimulatedDisk.builder().model(DiskModel.FILE).create(dir.resolve("files"));
    }
}

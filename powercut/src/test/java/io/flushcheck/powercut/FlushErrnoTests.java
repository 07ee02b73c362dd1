package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What errno a program's sync returns when the drive fails the flush with each {@link Errno}, measured through
 * the real kernel: the block model's loop device reports any failed flush as EIO (its {@code lo_req_flush}
 * turns every error but EINVAL into EIO), while FUSE hands the file model's errno to the fsync unchanged.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class FlushErrnoTests {

    @TempDir
    Path tmp;

    /** Overwrites a synced file and fdatasyncs it with its flush failing with {@code errno}; the fdatasync's errno. */
    private static int fdatasyncErrno(SimulatedDisk disk, Errno errno) {
        Path a = disk.path().resolve("a");
        PosixCalls.writeSynced(a, "old!");
        PosixCalls.syncDirectory(disk.path());
        disk.failFlushes(FaultPlan.flushesAfter(disk.flushes()).errno(errno).once());
        PosixCalls f = PosixCalls.openForWriting(a);
        assertThat(f.pwrite("new!", 0)).isZero();
        int e = f.fdatasync();
        f.close();
        System.out.printf("%s: the drive failed a flush with %s; the program's fdatasync returned %s%n", disk.model()
                + (disk.model() == DiskModel.BLOCK ? " (" + disk.fsType() + ")" : ""), errno, PosixCalls.name(e));
        assertThat(disk.failedFlushes()).isEqualTo(1);
        return e;
    }

    @ParameterizedTest
    @EnumSource(Errno.class)
    void onTheBlockModelTheLoopDeviceReportsEveryFailedFlushAsEio(Errno errno) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64)
                .create(tmp.resolve("disk"))) {
            assertThat(PosixCalls.name(fdatasyncErrno(disk, errno))).isEqualTo("EIO");
        }
    }

    @ParameterizedTest
    @EnumSource(Errno.class)
    void onTheFileModelFuseHandsTheErrnoToTheSyncUnchanged(Errno errno) throws IOException {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("files"))) {
            assertThat(PosixCalls.name(fdatasyncErrno(disk, errno))).isEqualTo(errno.name());
        }
    }
}

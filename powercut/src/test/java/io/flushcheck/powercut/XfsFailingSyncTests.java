package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * xfs's reaction to a failed flush, as ext4's is shown in {@link FailingSyncTests}: a log write whose flush fails
 * shuts the filesystem down, and from then on every call on it fails with EIO, where ext4 turns read-only (EROFS).
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class XfsFailingSyncTests {

    @TempDir
    Path tmp;

    private interface Call {
        Object run() throws IOException;
    }

    /** "success", or the message of the call's IOException. */
    private static String attempt(Call call) {
        try {
            call.run();
            return "success";
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    @Test
    void aFailedLogFlushShutsXfsDownAndEveryLaterCallFailsWithEio() throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Filesystems.find("mkfs.xfs") != null, "mkfs.xfs (apt-get install xfsprogs)");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs")
                .create(tmp.resolve("disk"))) {
            Path a = disk.path().resolve("a");
            PosixCalls.writeSynced(a, "old!");
            PosixCalls.syncDirectory(disk.path());
            disk.failFlushes(FaultPlan.flushesAfter(disk.flushes()));
            // A new name and its data: the fsync forces the log, whose write waits for the flush that fails.
            PosixCalls b = PosixCalls.openForWriting(disk.path().resolve("b"));
            int write = b.pwrite("new!", 0);
            int fsync = b.fsync();
            b.close();
            String overwrite = attempt(() -> Files.writeString(a, "newer"));
            String read = attempt(() -> Files.readString(a));
            String created = attempt(() -> Files.writeString(disk.path().resolve("c"), "c"));
            System.out.printf("xfs, flushes failing: pwrite %s, fsync %s; then overwriting a synced file: %s; reading it: %s;"
                    + " creating a file: %s%n", PosixCalls.name(write), PosixCalls.name(fsync), overwrite, read, created);
            assertThat(PosixCalls.name(fsync)).isEqualTo("EIO");
            assertThat(List.of(overwrite, read, created)).as("a shut-down xfs refuses every call")
                    .allMatch(r -> r.contains("Input/output error"));
            assertThat(Files.readString(disk.cutPower().resolve("a"))).isEqualTo("old!");
        }
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Writes to a file's bytes that the drive fails with the power on ({@link SimulatedDisk#failWrites}), met by the
 * real kernel: on ext4 a buffered overwrite succeeds, its writeback fails, the fsync reports the error once, and
 * a retried fsync reports success with the new bytes never written (Linux marks the pages clean after a failed
 * writeback: the "fsyncgate" behaviour of 2018). On the file model the write call itself fails.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class WriteFaultTests {

    private static final String OLD = "old!".repeat(1024);
    private static final String NEW = "new!".repeat(1024);

    @TempDir
    Path tmp;

    private SimulatedDisk ext4() throws IOException {
        return TestDisks.ext4(tmp);
    }

    private SimulatedDisk files() throws IOException {
        return TestDisks.files(tmp);
    }

    /** A 4 KiB file of OLD, synced with its name. */
    private static Path synced(SimulatedDisk disk) {
        Path a = disk.path().resolve("a");
        PosixCalls.writeSynced(a, OLD);
        PosixCalls.syncDirectory(disk.path());
        return a;
    }

    @Test
    void onExt4TheFsyncReportsTheFailedWritebackOnceAndTheRetrySucceedsWithTheBytesNeverWritten() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            Path a = synced(disk);
            disk.failWrites(WriteFault.toFile(a).once());
            PosixCalls f = PosixCalls.openForWriting(a);
            assertThat(f.pwrite(NEW, 0)).as("a buffered write lands in the page cache").isZero();
            int first = f.fsync();
            int retry = f.fsync();
            f.close();
            System.out.printf("ext4, write fault once: pwrite success, fsync %s, retried fsync %s, failed writes %d%n",
                    PosixCalls.name(first), PosixCalls.name(retry), disk.failedWrites());
            assertThat(PosixCalls.name(first)).isEqualTo("EIO");
            assertThat(retry).as("the error is reported once; the retry finds no dirty page to write").isZero();
            assertThat(disk.failedWrites()).isEqualTo(1);
            assertThat(Files.readString(a)).as("the page cache still shows the new bytes").isEqualTo(NEW);
            assertThat(Files.readString(disk.cutPower().resolve("a"))).as("the drive never got them").isEqualTo(OLD);
        }
    }

    @ParameterizedTest
    @EnumSource(Errno.class)
    void onExt4TheFsyncAfterAFailedWritebackReturns(Errno errno) throws IOException {
        try (SimulatedDisk disk = ext4()) {
            Path a = synced(disk);
            disk.failWrites(WriteFault.toFile(a).errno(errno));
            PosixCalls f = PosixCalls.openForWriting(a);
            assertThat(f.pwrite(NEW, 0)).isZero();
            int e = f.fsync();
            f.close();
            System.out.printf("ext4: the drive failed the file's writeback with %s; the program's fsync returned %s%n",
                    errno, PosixCalls.name(e));
            assertThat(PosixCalls.name(e)).isEqualTo(expectedOnExt4(errno));
        }
    }

    /** What ext4 on the loop device passes up, measured: the block layer's status for the errno, back as an errno. */
    private static String expectedOnExt4(Errno errno) {
        return switch (errno) {
            case ENOSPC, ENODATA, ETIMEDOUT -> errno.name();
            default -> "EIO";
        };
    }

    @ParameterizedTest
    @EnumSource(Errno.class)
    void onTheFileModelTheWriteCallItselfFailsWithTheErrnoAndChangesNothing(Errno errno) throws IOException {
        try (SimulatedDisk disk = files()) {
            Path a = synced(disk);
            disk.failWrites(WriteFault.toFile(a).range(100, 10).errno(errno).once());
            PosixCalls f = PosixCalls.openForWriting(a);
            int before = f.pwrite("x", 50);
            int hit = f.pwrite("yy", 105);
            int again = f.pwrite("z", 105);
            int sync = f.fsync();
            f.close();
            System.out.printf("file model: a write fault of %s; pwrite outside %s, inside %s, again %s; fsync %s%n", errno,
                    PosixCalls.name(before), PosixCalls.name(hit), PosixCalls.name(again), PosixCalls.name(sync));
            assertThat(before).isZero();
            assertThat(PosixCalls.name(hit)).isEqualTo(errno.name());
            assertThat(again).as("once: the next write works").isZero();
            assertThat(sync).isZero();
            String survived = Files.readString(disk.cutPower().resolve("a"));
            assertThat(survived.substring(104, 107)).as("the failed write left its bytes as they were").isEqualTo("ozd");
            assertThat(survived.charAt(50)).isEqualTo('x');
        }
    }

    @Test
    void aFaultThatCannotBePlacedIsRefusedWithTheReason() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            Path empty = disk.path().resolve("empty");
            Files.createFile(empty);
            assertThatThrownBy(() -> disk.failWrites(WriteFault.toFile(empty))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has no bytes on the drive");
        }
        try (SimulatedDisk disk = files()) {
            assertThatThrownBy(() -> disk.failWrites(WriteFault.toDrive(0, 4096))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the file model has no drive");
        }
    }
}

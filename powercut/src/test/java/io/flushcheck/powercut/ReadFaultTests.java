package io.flushcheck.powercut;

import static io.flushcheck.powercut.FailingReads.readOrError;
import static io.flushcheck.powercut.FailingReads.shown;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Reads of a file's bytes that the drive fails with the power on ({@link SimulatedDisk#failReads}), met by the real
 * kernel: a bad sector reads as EIO ("Input/output error") until its bytes are rewritten, then the new bytes read;
 * a transient error fails one read of the drive only.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class ReadFaultTests {

    private static final String OLD = "old!".repeat(1024);
    private static final String NEW = "new!".repeat(1024);

    @TempDir
    Path tmp;

    /** A 4 KiB file of OLD, synced with its name. */
    private static Path synced(SimulatedDisk disk) {
        Path a = disk.path().resolve("a");
        PosixCalls.writeSynced(a, OLD);
        PosixCalls.syncDirectory(disk.path());
        return a;
    }

    /** Rewrites all of {@code a}'s bytes in place with NEW and syncs them. */
    private static void rewrite(Path a) {
        PosixCalls.writeSynced(a, NEW);
    }

    @Test
    void onExt4ABadSectorReadsAsEioUntilRewrittenAndATransientErrorFailsOneRead() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            Path a = synced(disk);
            disk.failReads(ReadFault.toFile(a));
            FailingReads.FailedTwice failed = FailingReads.failTwice(disk, a, "a bad sector stays bad");
            long afterOne = failed.afterOne();
            long afterTwo = failed.afterTwo();
            System.out.printf("ext4, bad sector: two reads of the file failed with EIO; the drive failed %d reads, %d at"
                    + " the first%n", afterTwo, afterOne);
            assertThat(afterOne).isPositive();
            assertThat(afterTwo).isGreaterThan(afterOne);

            rewrite(a);
            TestDisks.uncache(a);
            assertThat(Files.readString(a)).as("the rewritten sector reads from the drive again").isEqualTo(NEW);
            assertThat(disk.failedReads()).isEqualTo(afterTwo);

            disk.failReads(ReadFault.toFile(a).once());
            String first = readOrError(a);
            String second = readOrError(a);
            System.out.printf("ext4, transient error: first read %s, second %s; the drive failed %d reads%n",
                    shown(first), shown(second), disk.failedReads());
            assertThat(disk.failedReads()).as("a buffered read: the kernel retried the page after the failed readahead")
                    .isEqualTo(afterTwo + 1);
            assertThat(second).isEqualTo(NEW);
        }
    }

    /**
     * btrfs's FIEMAP gives its own logical addresses; mapped onto the drive through its chunk tree, the bad sector lies
     * under the file, and the read fails. The file is 12 MiB, too large for btrfs's first data chunk (8 MiB here, whose
     * logical addresses are its places on the drive), so its bytes lie where only the chunk tree says. A rewrite goes
     * to a new place (copy on write), which reads.
     */
    @Test
    void onBtrfsABadSectorUnderAFileReadsAsEioAndTheRewrittenFileReads() throws IOException {
        try (SimulatedDisk disk = TestDisks.btrfs(tmp)) {
            Path big = disk.path().resolve("big");
            Files.writeString(big, OLD.repeat(3 * 1024));
            disk.failReads(ReadFault.toFile(big).range(10 << 20, 4096));
            assertThatThrownBy(() -> Files.readString(big)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            long failed = disk.failedReads();
            System.out.printf("btrfs, bad sector: the read of the file failed with EIO; the drive failed %d reads%n", failed);
            assertThat(failed).isPositive();
            Files.writeString(big, NEW.repeat(3 * 1024));
            try (FileChannel c = FileChannel.open(big, StandardOpenOption.WRITE)) {
                c.force(true);
            }
            TestDisks.uncache(big);
            assertThat(Files.readString(big)).as("written elsewhere, copy on write").isEqualTo(NEW.repeat(3 * 1024));
        }
    }

    @Test
    void onTheFileModelABadRangeReadsAsEioUntilRewrittenAndATransientErrorFailsOneRead() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            Path a = synced(disk);
            disk.failReads(ReadFault.toFile(a));
            FailingReads.FailedTwice failed = FailingReads.failTwice(disk, a, "a bad range stays bad");
            long afterOne = failed.afterOne();
            long afterTwo = failed.afterTwo();
            System.out.printf("file model, bad range: two reads of the file failed with EIO; the tree failed %d reads, %d"
                    + " at the first%n", afterTwo, afterOne);
            assertThat(afterOne).isPositive();
            assertThat(afterTwo).isGreaterThan(afterOne);

            rewrite(a);
            assertThat(Files.readString(a)).as("the rewritten bytes read again").isEqualTo(NEW);
            assertThat(disk.failedReads()).isEqualTo(afterTwo);

            disk.failReads(ReadFault.toFile(a).range(100, 10).once());
            String first = readOrError(a);
            String second = readOrError(a);
            System.out.printf("file model, transient error: first read %s, second %s%n",
                    shown(first), shown(second));
            assertThat(disk.failedReads()).as("a buffered read: the kernel retried the page after the failed readahead")
                    .isEqualTo(afterTwo + 1);
            assertThat(second).isEqualTo(NEW);

            disk.failReads(ReadFault.toFile(a).range(100, 10).once());
            String direct = readDirect(a);
            String directAgain = readDirect(a);
            System.out.printf("file model, transient error, O_DIRECT: first read %s, second %s%n",
                    shown(direct), shown(directAgain));
            assertThat(direct).as("a read with no cache and no readahead meets the error").isEqualTo("Input/output error");
            assertThat(directAgain).isEqualTo(NEW);
            assertThat(disk.failedReads()).isEqualTo(afterTwo + 2);
        }
    }

    @Test
    void onExt4WithDirectIoATransientErrorFailsTheFirstDirectReadAndNotTheSecond() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4DirectIo(tmp)) {
            Path a = synced(disk);
            long before = disk.failedReads();
            disk.failReads(ReadFault.toFile(a).once());
            String first = readDirect(a);
            String second = readDirect(a);
            System.out.printf("ext4 on a direct-I/O loop device, transient error, O_DIRECT: first read %s, second %s%n",
                    shown(first), shown(second));
            assertThat(first).isEqualTo("Input/output error");
            assertThat(second).isEqualTo(OLD);
            assertThat(disk.failedReads()).isEqualTo(before + 1);
        }
    }

    @Test
    void aReadFaultThatCannotBePlacedIsRefusedWithTheReason() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            assertThatThrownBy(() -> disk.failReads(ReadFault.toDrive(0, 4096))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("the file model has no drive");
        }
    }

    /** The file's first 4 KiB read with O_DIRECT (no page cache, no readahead), or the message of the error reading it. */
    private static String readDirect(Path a) {
        try (FileChannel c = FileChannel.open(a, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
            ByteBuffer b = ByteBuffer.allocateDirect(2 * 4096).alignedSlice(4096).limit(4096);
            while (b.hasRemaining() && c.read(b, b.position()) > 0) {
                // reads until the 4 KiB are in
            }
            byte[] out = new byte[b.flip().remaining()];
            b.get(out);
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}

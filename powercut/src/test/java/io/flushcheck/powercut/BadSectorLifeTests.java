package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A bad sector under a file's bytes as the file goes on living, on ext4 (the block model: the real kernel on a drive
 * whose sector fails) and on the file model, which must do the same: a truncate frees the block, a partial write into
 * a faulted block that is not cached fails as the kernel's read-modify-write does.
 *
 * <p>The file model's blocks are 4 KiB (its {@code statfs} says so), as ext4's on any drive of 512 MiB and more; a
 * 64 MiB ext4 would get 1 KiB blocks from mke2fs.conf's "small" type, so the ext4 compared with it here is made with
 * {@code -b 4096}. What 1 KiB blocks change is measured on its own
 * ({@link #onExt4With1KiBBlocksATruncateTo3KeepsOnly1KiBAndWritesPastItLandOnNewBlocks}).
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class BadSectorLifeTests {

    @TempDir
    Path tmp;

    private static final String BYTES = "shm!".repeat(2048);

    /** A 64 MiB ext4 on the block model under {@code dir}, with 4 KiB blocks as the file model's. */
    private static SimulatedDisk ext4(Path dir) throws IOException {
        return ext4(dir, "-b", "4096");
    }

    private static SimulatedDisk ext4(Path dir, String... mkfsOptions) throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64).mkfsOptions(mkfsOptions)
                .create(dir.resolve("disk"));
    }

    private static long blockSize(SimulatedDisk disk) throws IOException {
        return Files.getFileStore(disk.path()).getBlockSize();
    }

    /** SQLite's -shm sequence: each step's outcome ("ok" or the error), then a read and an mmap read of the file. */
    private static List<String> shmSequence(SimulatedDisk disk, long truncateTo) throws IOException {
        Path shm = disk.path().resolve("app.db-shm");
        PosixCalls.writeSynced(shm, BYTES);
        PosixCalls.syncDirectory(disk.path());
        disk.failReads(ReadFault.toFile(shm).range(0, 4096));
        List<String> out = new ArrayList<>();
        try (FileChannel c = FileChannel.open(shm, StandardOpenOption.WRITE)) {
            out.add("truncate " + truncateTo + ": " + step(() -> c.truncate(truncateTo)));
            out.add("write 1 at 4095: " + step(() -> c.write(ByteBuffer.wrap(new byte[1]), 4095)));
            out.add("write 1 at 8191: " + step(() -> c.write(ByteBuffer.wrap(new byte[1]), 8191)));
        }
        out.add("read: " + step(() -> Files.readAllBytes(shm)));
        out.add("mmap read: " + mmapRead(shm));
        return out;
    }

    /** Offsets of 1-byte writes after a truncate to 3 bytes: in the first 1 KiB, and past it in the first 4 KiB. */
    private static final long[] PAST_THE_END = {8, 100, 2048, 4000, 4094, 4095};

    /** The file truncated to 3 bytes with bytes 0+4096 bad, then each 1-byte write of {@link #PAST_THE_END}. */
    private static List<String> writesAfterTruncateTo3(SimulatedDisk disk) throws IOException {
        Path f = disk.path().resolve("app.db-shm");
        PosixCalls.writeSynced(f, BYTES);
        PosixCalls.syncDirectory(disk.path());
        disk.failReads(ReadFault.toFile(f).range(0, 4096));
        List<String> out = new ArrayList<>();
        try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
            c.truncate(3);
            for (long at : PAST_THE_END) {
                out.add("write 1 at " + at + ": " + step(() -> c.write(ByteBuffer.wrap(new byte[1]), at)));
            }
        }
        return out;
    }

    /** A partial write into the faulted block, then a whole-block write over it, then a read. */
    private static List<String> partialWrite(SimulatedDisk disk) throws IOException {
        Path f = disk.path().resolve("f");
        PosixCalls.writeSynced(f, BYTES);
        PosixCalls.syncDirectory(disk.path());
        disk.failReads(ReadFault.toFile(f).range(0, 4096));
        List<String> out = new ArrayList<>();
        try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
            out.add("write 1 at 100: " + step(() -> c.write(ByteBuffer.wrap(new byte[1]), 100)));
            out.add("write 4096 at 4096: " + step(() -> c.write(ByteBuffer.wrap(new byte[4096]), 4096)));
            out.add("write 100 at 4000: " + step(() -> c.write(ByteBuffer.wrap(new byte[100]), 4000)));
            out.add("write 4096 at 0: " + step(() -> c.write(ByteBuffer.wrap(new byte[4096]), 0)));
            out.add("write 1 at 100 again: " + step(() -> c.write(ByteBuffer.wrap(new byte[1]), 100)));
        }
        out.add("read: " + step(() -> Files.readAllBytes(f)));
        return out;
    }

    private interface Step {
        Object run() throws IOException;
    }

    private static String step(Step s) {
        try {
            s.run();
            return "ok";
        } catch (IOException e) {
            return String.valueOf(e.getMessage());
        }
    }

    /** Maps the file in a child process (a SIGBUS there does not kill this JVM) and reads every byte of it. */
    private static String mmapRead(Path file) throws IOException {
        Process p = new ProcessBuilder("python3", "-c", "import mmap,sys\n"
                + "f=open(sys.argv[1],'rb')\nm=mmap.mmap(f.fileno(),0,access=mmap.ACCESS_READ)\nsum(m[:])\nprint('ok')",
                file.toString()).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            return "interrupted";
        }
        String said = new String(p.getInputStream().readAllBytes()).trim();
        return p.exitValue() == 0 ? said : "exit " + p.exitValue() + (p.exitValue() == 128 + 7 ? " (SIGBUS)" : "") ;
    }

    /** What ext4 does, measured on the block model: the reference the file model is held to. */
    private static final List<String> TRUNCATED_TO_0 = List.of("truncate 0: ok", "write 1 at 4095: ok",
            "write 1 at 8191: ok", "read: ok", "mmap read: ok");
    private static final List<String> PARTIAL_WRITES = List.of("write 1 at 100: Input/output error",
            "write 4096 at 4096: ok", "write 100 at 4000: Input/output error", "write 4096 at 0: ok",
            "write 1 at 100 again: ok", "read: ok");

    @Test
    void onExt4ATruncateTo0FreesTheBadSectorAndThe1ByteWritesThatExtendTheFileReadAndMap() throws IOException {
        try (SimulatedDisk disk = ext4(tmp)) {
            List<String> steps = shmSequence(disk, 0);
            System.out.println("ext4 (4 KiB blocks), bad sector on bytes 0+4096: " + steps);
            assertThat(steps).isEqualTo(TRUNCATED_TO_0);
        }
    }

    @Test
    void onTheFileModelATruncateTo0FreesTheBadSectorAndThe1ByteWritesThatExtendTheFileReadAndMap() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            List<String> steps = shmSequence(disk, 0);
            System.out.println("file model, bad sector on bytes 0+4096: " + steps);
            assertThat(steps).isEqualTo(TRUNCATED_TO_0);
        }
    }

    /**
     * SQLite's own sequence: it truncates the -shm file to 3 bytes, not 0, so the block holding them, bad sector and
     * all, is kept: the 1-byte write at 4095, in that block, must read the block's other bytes first and fails; the
     * read fails, and the mapped page raises SIGBUS. ext4 and the file model answer each step the same.
     */
    @Test
    void aTruncateTo3KeepsTheBadBlockOnExt4AndOnTheFileModel() throws IOException {
        List<String> expected = List.of("truncate 3: ok", "write 1 at 4095: Input/output error",
                "write 1 at 8191: ok", "read: Input/output error", "mmap read: exit 135 (SIGBUS)");
        try (SimulatedDisk disk = ext4(tmp.resolve("ext4"))) {
            assertThat(blockSize(disk)).isEqualTo(4096);
            List<String> steps = shmSequence(disk, 3);
            System.out.println("ext4 (4 KiB blocks), bad sector on bytes 0+4096, truncate to 3: " + steps);
            assertThat(steps).isEqualTo(expected);
        }
        try (SimulatedDisk disk = TestDisks.files(tmp.resolve("files"))) {
            assertThat(blockSize(disk)).isEqualTo(4096);
            List<String> steps = shmSequence(disk, 3);
            System.out.println("file model, bad sector on bytes 0+4096, truncate to 3: " + steps);
            assertThat(steps).isEqualTo(expected);
        }
    }

    /**
     * With 4 KiB blocks (ext4 made with {@code -b 4096}, and the file model) every byte the truncate to 3 left in the
     * first 4 KiB lies in the kept bad block: each 1-byte write there reads it first and fails.
     */
    @Test
    void afterATruncateTo3EveryWriteInTheKept4KiBBlockFailsOnExt4AndOnTheFileModel() throws IOException {
        List<String> expected = List.of("write 1 at 8: Input/output error", "write 1 at 100: Input/output error",
                "write 1 at 2048: Input/output error", "write 1 at 4000: Input/output error",
                "write 1 at 4094: Input/output error", "write 1 at 4095: Input/output error");
        try (SimulatedDisk disk = ext4(tmp.resolve("ext4"))) {
            List<String> steps = writesAfterTruncateTo3(disk);
            System.out.println("ext4 (4 KiB blocks), bad bytes 0+4096, truncated to 3: " + steps);
            assertThat(steps).isEqualTo(expected);
        }
        try (SimulatedDisk disk = TestDisks.files(tmp.resolve("files"))) {
            List<String> steps = writesAfterTruncateTo3(disk);
            System.out.println("file model, bad bytes 0+4096, truncated to 3: " + steps);
            assertThat(steps).isEqualTo(expected);
        }
    }

    /**
     * A 64 MiB ext4 made without options has 1 KiB blocks (mke2fs.conf's "small" type, below 512 MiB): the truncate
     * to 3 keeps only the first 1 KiB block, bad, and frees the other three the bad range covered. A write into the
     * kept block reads it first and fails; a write past it lands on a newly allocated block, which the kernel zeroes
     * instead of reading, and the buffers of the page outside the write are not read at all: it succeeds.
     */
    @Test
    void onExt4With1KiBBlocksATruncateTo3KeepsOnly1KiBAndWritesPastItLandOnNewBlocks() throws IOException {
        try (SimulatedDisk disk = ext4(tmp, new String[0])) {
            assertThat(blockSize(disk)).as("mke2fs's block size for 64 MiB").isEqualTo(1024);
            List<String> steps = writesAfterTruncateTo3(disk);
            System.out.println("ext4 (1 KiB blocks), bad bytes 0+4096, truncated to 3: " + steps);
            assertThat(steps).containsExactly("write 1 at 8: Input/output error",
                    "write 1 at 100: Input/output error", "write 1 at 2048: ok", "write 1 at 4000: ok",
                    "write 1 at 4094: ok", "write 1 at 4095: ok");
        }
    }

    @Test
    void onExt4AWriteIntoPartOfABadBlockFailsAndAWriteOfAllOfItClearsIt() throws IOException {
        try (SimulatedDisk disk = ext4(tmp)) {
            List<String> steps = partialWrite(disk);
            System.out.println("ext4 (4 KiB blocks), bad sector on bytes 0+4096 of 8 KiB: " + steps);
            assertThat(steps).isEqualTo(PARTIAL_WRITES);
        }
    }

    @Test
    void onTheFileModelAWriteIntoPartOfABadBlockFailsAndAWriteOfAllOfItClearsIt() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            List<String> steps = partialWrite(disk);
            System.out.println("file model, bad sector on bytes 0+4096 of 8 KiB: " + steps);
            assertThat(steps).isEqualTo(PARTIAL_WRITES);
            assertThat(disk.failedReads()).as("each failed write's read counts").isEqualTo(2);
        }
    }

    /** A bad range of a few bytes is a bad block: a read of the block's other bytes fails, as a drive's sector does. */
    @Test
    void onTheFileModelAFewBadBytesMakeTheirBlockBadAndATruncateIntoTheBlockKeepsIt() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            Path f = disk.path().resolve("f");
            PosixCalls.writeSynced(f, BYTES);
            disk.failReads(ReadFault.toFile(f).range(5000, 10));
            try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
                c.truncate(4100);
            }
            String read = step(() -> Files.readAllBytes(f));
            System.out.println("file model, bad bytes 5000+10, truncated to 4100, read: " + read);
            assertThat(read).as("bytes 4096+4 lie in the bad block").isEqualTo("Input/output error");
            try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
                c.truncate(4096);
                c.write(ByteBuffer.wrap(new byte[1]), 5000);
            }
            assertThat(step(() -> Files.readAllBytes(f))).as("the block was freed; byte 5000 is on a new one").isEqualTo("ok");
        }
    }
}

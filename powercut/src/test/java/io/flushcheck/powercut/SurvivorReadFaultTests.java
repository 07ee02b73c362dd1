package io.flushcheck.powercut;

import static io.flushcheck.powercut.FailingReads.readOrError;
import static io.flushcheck.powercut.FailingReads.shown;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.powercut.internal.kernel.FileExtents;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Unprivileged;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Reads that fail on what survives a power cut ({@link SimulatedDisk#failReads} after {@link SimulatedDisk#cutPower()}),
 * as a program meets them reopening its files after the reboot: on the block model the survivor moves onto a drive of
 * its own, whose reads can fail, under the real kernel filesystem. A bad sector of a synced file reads as EIO, again,
 * until its bytes are rewritten; a transient error fails one read; and nothing of the survivor's drive stays once the
 * disk is closed.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SurvivorReadFaultTests {

    private static final String OLD = "old!".repeat(3 * 1024);
    private static final String NEW = "new!".repeat(3 * 1024);

    @TempDir
    Path tmp;

    /** A 12 KiB file of OLD, synced with its name, before the cut. */
    private static void synced(SimulatedDisk disk) {
        PosixCalls.writeSynced(disk.path().resolve("a"), OLD);
        PosixCalls.syncDirectory(disk.path());
    }

    @Test
    void onExt4ABadSectorOfTheSurvivorReadsAsEioUntilRewrittenAndATransientErrorFailsOneRead() throws IOException {
        Path work;
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            work = tmp.resolve("disk").toRealPath();
            badSectorThenTransient(disk, "ext4");
        }
        assertNothingLeft(work);
    }

    @Test
    void onXfsABadSectorOfTheSurvivorReadsAsEioUntilRewrittenAndATransientErrorFailsOneRead() throws IOException {
        try (SimulatedDisk disk = TestDisks.xfs(tmp)) {
            badSectorThenTransient(disk, "xfs");
        }
    }

    private static void badSectorThenTransient(SimulatedDisk disk, String fs) throws IOException {
        synced(disk);
        long before = disk.failedReads();
        // tag::survivor-reads[]
        Path survivor = disk.cutPower();
        Path a = survivor.resolve("a");
        disk.failReads(ReadFault.toFile(a).range(4096, 4096)); // its second 4 KiB: a bad sector after the reboot
        // end::survivor-reads[]
        FailingReads.FailedTwice failed = FailingReads.failTwice(disk, a, "a bad sector stays bad");
        long afterOne = failed.afterOne();
        long afterTwo = failed.afterTwo();
        System.out.printf("%s survivor, bad sector: two reads of the file failed with EIO; the survivor's drive failed %d"
                + " reads, %d at the first%n", fs, afterTwo - before, afterOne - before);
        assertThat(afterOne).isGreaterThan(before);
        assertThat(afterTwo).isGreaterThan(afterOne);

        PosixCalls.writeSynced(a, NEW);
        TestDisks.uncache(a);
        assertThat(Files.readString(a)).as("the rewritten sector reads from the drive again").isEqualTo(NEW);
        assertThat(disk.failedReads()).isEqualTo(afterTwo);

        disk.failReads(ReadFault.toFile(a).once());
        String first = readOrError(a);
        String second = readOrError(a);
        System.out.printf("%s survivor, transient error: first read %s, second %s%n", fs,
                shown(first), shown(second));
        assertThat(disk.failedReads()).as("one read failed, the kernel's retry of the page read").isEqualTo(afterTwo + 1);
        assertThat(second).isEqualTo(NEW);
    }

    /**
     * The file model's survivor is a plain directory: failing its reads moves its files into a tree served over FUSE,
     * whose reads fail as the disk's did with the power on.
     */
    @Test
    void onTheFileModelABadRangeOfTheSurvivorReadsAsEioUntilRewrittenAndATransientErrorFailsOneRead() throws IOException {
        Path work;
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            work = tmp.resolve("files").toRealPath();
            synced(disk);
            long before = disk.failedReads();
            Path a = disk.cutPower().resolve("a");
            disk.failReads(ReadFault.toFile(a).range(4096, 4096));
            FailingReads.FailedTwice failed = FailingReads.failTwice(disk, a, "a bad range stays bad");
            long afterOne = failed.afterOne();
            long afterTwo = failed.afterTwo();
            System.out.printf("file model survivor, bad range: two reads of the file failed with EIO; the survivor's tree"
                    + " failed %d reads, %d at the first%n", afterTwo - before, afterOne - before);
            assertThat(afterOne).isGreaterThan(before);
            assertThat(afterTwo).isGreaterThan(afterOne);

            PosixCalls.writeSynced(a, NEW);
            assertThat(Files.readString(a)).as("the rewritten bytes read again").isEqualTo(NEW);
            assertThat(disk.failedReads()).isEqualTo(afterTwo);

            disk.failReads(ReadFault.toFile(a).range(100, 10).once());
            String first = readOrError(a);
            String second = readOrError(a);
            System.out.printf("file model survivor, transient error: first read %s, second %s%n",
                    shown(first), shown(second));
            assertThat(disk.failedReads()).as("one read failed, the kernel's retry of the page read").isEqualTo(afterTwo + 1);
            assertThat(second).isEqualTo(NEW);
        }
        assertNothingLeft(work);
    }

    /** Without root: a JVM running as {@code nobody} fails its survivor's reads, through fusermount3 and fuse 2's fusermount. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.flushcheck.powercut.UnprivilegedFileModelTests#fusermounts")
    void anUnprivilegedJvmFailsReadsOfItsFileModelSurvivor(String which) throws Exception {
        TestDisks.requireFileModel();
        Path work = Unprivileged.writableDir(tmp).resolve("disk");
        List<String> cmd = new ArrayList<>(List.of("env",
                FuseMount.FUSERMOUNT_VARIABLE + "=" + UnprivilegedFileModelTests.binary(which)));
        cmd.addAll(Unprivileged.command(tmp, SurvivorReadsWorkload.class.getName(), List.of(work.toString())));
        ChildJvm.Result r = ChildJvm.run(cmd, 120);
        assertThat(r.exit()).as("%s", r).isZero();
        assertThat(r.stdout()).as("%s", r).doesNotContain("uid 0\n").contains("first Input/output error\n",
                "second Input/output error\n", "rewritten new!\n", "left false\n");
        assertThat(r.stdout()).as("%s", r).containsPattern("failed [1-9]");
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(work.toString());
    }

    /** btrfs's FIEMAP addresses are its own: placed through its chunk tree on the survivor, the bad sector is under the file. */
    @Test
    void onBtrfsABadSectorOfTheSurvivorReadsAsEio() throws IOException {
        try (SimulatedDisk disk = TestDisks.btrfs(tmp)) {
            Path big = disk.path().resolve("big");
            PosixCalls.writeSynced(big, OLD.repeat(1024));
            PosixCalls.syncDirectory(disk.path());
            Path survivor = disk.cutPower();
            Path a = survivor.resolve("big");
            disk.failReads(ReadFault.toFile(a).range(10 << 20, 4096));
            assertThatThrownBy(() -> Files.readString(a)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            System.out.printf("btrfs survivor, bad sector: the read of the file failed with EIO; %d reads failed%n",
                    disk.failedReads());
            assertThat(disk.failedReads()).isPositive();
        }
    }

    /**
     * A fault on the drive's own bytes after a cut is on the survivor's drive: here the sector under the file's first
     * 4 KiB, found by FIEMAP on the survivor. And reads are failed from within the hook run as the cut returns its
     * survivor (a {@link CorruptedBlocks} invocation's), as from a test once {@code cutPower()} has returned.
     */
    @Test
    void aDriveRangeOfTheSurvivorArmedAsTheCutReturnsItFailsTheReadsOfTheFileOverIt() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            synced(disk);
            disk.onSurvivor(survivor -> {
                long at = FileExtents.of(survivor.resolve("a"), 0, 4096).get(0).device();
                disk.failReads(ReadFault.toDrive(at, 4096));
            });
            Path a = disk.cutPower().resolve("a");
            assertThatThrownBy(() -> Files.readString(a)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            assertThat(disk.failedReads()).isPositive();
        }
    }

    /**
     * Once its reads can fail, the survivor's bytes are its drive's, over the saved image: data at rest changed after
     * that ({@link SimulatedDisk#corrupt}) changes them there, and a file rewritten meanwhile reads changed too.
     */
    @Test
    void dataAtRestChangedOnAServedSurvivorChangesWhatItsFilesRead() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            synced(disk);
            Path a = disk.cutPower().resolve("a");
            disk.failReads(ReadFault.toFile(a).range(0, 4096));
            PosixCalls.writeSynced(a, NEW);
            Corruption done = disk.corrupt(DataFault.zeroed(a).range(8192, 4096));
            TestDisks.uncache(a);
            assertThat(Files.readString(a)).as(done.toString()).isEqualTo(NEW.substring(0, 8192) + "\0".repeat(4096));
        }
    }

    @Test
    void aSurvivorWhoseFilesAreOpenIsRefusedWithTheReasonAndReadsOn() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            synced(disk);
            Path a = disk.cutPower().resolve("a");
            try (FileChannel open = FileChannel.open(a, StandardOpenOption.READ)) {
                assertThatThrownBy(() -> disk.failReads(ReadFault.toFile(a))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("are open");
            }
            assertThat(Files.readString(a)).isEqualTo(OLD);
            assertThatThrownBy(() -> disk.failReads(ReadFault.toFile(tmp.resolve("elsewhere"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("of the survivor");
        }
    }

    @Test
    void onTheFileModelAnOpenSurvivorFileIsRefusedAndDataAtRestChangesInTheServedTree() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            synced(disk);
            Path a = disk.cutPower().resolve("a");
            try (FileChannel open = FileChannel.open(a, StandardOpenOption.READ)) {
                assertThatThrownBy(() -> disk.failReads(ReadFault.toFile(a))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("are open");
            }
            disk.failReads(ReadFault.toFile(a).range(0, 4096));
            PosixCalls.writeSynced(a, NEW);
            Corruption done = disk.corrupt(DataFault.zeroed(a).range(8192, 4096));
            assertThat(Files.readString(a)).as(done.toString()).isEqualTo(NEW.substring(0, 8192) + "\0".repeat(4096));
        }
    }

    /**
     * A file of the file model's served survivor held open while its data at rest changes reads the change through the
     * same descriptor: the kernel keeps a served file's pages across reads and opens, and the change drops them.
     */
    @Test
    void onTheFileModelAServedSurvivorFileHeldOpenReadsItsDataChangedAtRest() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            synced(disk);
            Path a = disk.cutPower().resolve("a");
            disk.failReads(ReadFault.toFile(a).range(0, 4096)); // the survivor moves into a served tree
            try (FileChannel open = FileChannel.open(a, StandardOpenOption.READ)) {
                assertThat(readAt(open, 8192, 4096)).isEqualTo(OLD.substring(8192));
                Corruption done = disk.corrupt(DataFault.zeroed(a).range(8192, 4096));
                assertThat(readAt(open, 8192, 4096)).as(done.toString()).isEqualTo("\0".repeat(4096));
            }
        }
    }

    private static String readAt(FileChannel c, long at, int length) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(length);
        while (b.hasRemaining() && c.read(b, at + b.position()) > 0) {
            // a short read goes on where it stopped
        }
        return new String(b.array(), 0, b.position(), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * A drive range on the file model's survivor is refused before the survivor moves into a tree of its own: it stays
     * the plain directory, so a file of it held open still refuses a later fault.
     */
    @Test
    void onTheFileModelADriveRangeIsRefusedBeforeTheSurvivorMoves() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            synced(disk);
            Path a = disk.cutPower().resolve("a");
            assertThatThrownBy(() -> disk.failReads(ReadFault.toDrive(0, 4096)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the file model has no drive");
            try (FileChannel open = FileChannel.open(a, StandardOpenOption.READ)) {
                assertThatThrownBy(() -> disk.failReads(ReadFault.toFile(a))).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("are open");
            }
            assertThat(Files.readString(a)).isEqualTo(OLD);
        }
    }

    private static void assertNothingLeft(Path work) throws IOException {
        assertThat(work).doesNotExist();
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(work.toString());
        String loops = io.flushcheck.testing.Shell.run("losetup", "--list", "--noheadings", "--output", "BACK-FILE");
        assertThat(loops).doesNotContain(work.toString());
    }
}

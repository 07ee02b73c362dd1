package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.kernel.FileExtents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Data at rest that changes under the filesystem ({@link SimulatedDisk#corrupt}), met by the real kernel: on ext4 a
 * flipped bit of a synced file reads back flipped, without an error; on btrfs the same flip fails the read with EIO
 * (its data checksum no longer matches); zeroed bytes read as zeros. With the power on the change is durable, so the
 * survivor of a cut holds it; on the survivor a fault changes what the program finds after the reboot.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class DataFaultTests {

    private static final int SIZE = 16 * 1024;

    @TempDir
    Path tmp;

    /** {@value #SIZE} bytes, each its own offset's low byte plus {@code salt}: a changed byte is seen where it is. */
    private static byte[] content(int salt) {
        byte[] b = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            b[i] = (byte) (i * 7 + salt);
        }
        return b;
    }

    /** {@code name} on the disk, {@link #content} of {@code salt}, synced with its name. */
    private static Path synced(SimulatedDisk disk, String name, int salt) throws IOException {
        Path p = disk.path().resolve(name);
        Files.write(p, content(salt));
        try (var c = java.nio.channels.FileChannel.open(p, java.nio.file.StandardOpenOption.WRITE)) {
            c.force(true);
        }
        PosixCalls.syncDirectory(disk.path());
        return p;
    }

    /** The offsets where {@code read} differs from {@code expected}. */
    private static List<Integer> differences(byte[] read, byte[] expected) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < Math.max(read.length, expected.length); i++) {
            if (i >= read.length || i >= expected.length || read[i] != expected[i]) {
                at.add(i);
            }
        }
        return at;
    }

    /** What a read of {@code file} returns: its bytes, or the error's message. */
    private static Object read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** ext4 and xfs return the flipped bit, and the zeroed bytes, without an error. */
    private static void assertFlipped(Object read, byte[] expected, Corruption c) {
        assertThat(read).as("the changed bytes read without an error").isInstanceOf(byte[].class);
        byte[] bytes = (byte[]) read;
        assertThat(differences(bytes, expected)).containsExactly((int) c.offset());
        assertThat(bytes[(int) c.offset()] ^ expected[(int) c.offset()]).isEqualTo(1 << c.bit());
    }

    private SimulatedDisk disk(String fs) throws IOException {
        return switch (fs) {
            case "ext4" -> TestDisks.ext4(tmp);
            case "xfs" -> TestDisks.xfs(tmp);
            default -> TestDisks.btrfs(tmp);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"ext4", "xfs", "btrfs"})
    void aFlippedBitOfASyncedFileReadsFlippedOnExt4AndXfsAndAsEioOnBtrfsWithThePowerOnAndOnTheSurvivor(String fs)
            throws IOException {
        boolean checksummed = fs.equals("btrfs");
        try (SimulatedDisk disk = disk(fs)) {
            Path a = synced(disk, "a", 1);
            Path b = synced(disk, "b", 2);
            Corruption flip = disk.corrupt(DataFault.bitRot(a).range(8192, 4096).seed(7));
            Object read = read(a);
            System.out.printf("%s, power on: %s; the read: %s%n", fs, flip,
                    read instanceof byte[] r ? "bytes differing at " + differences(r, content(1)) : read);
            assertThat(flip.toString()).matches("bit [0-7] of byte \\d+ of a flipped \\(drive byte \\d+\\)");
            assertThat(flip.offset()).isBetween(8192L, 8192L + 4095);
            assertThat(flip.survivor()).isFalse();
            // The same seed picks the same bit, whose second flip puts it back; a third flips it again.
            assertThat(disk.corrupt(DataFault.bitRot(a).range(8192, 4096).seed(7))).isEqualTo(flip);
            assertThat(read(a)).isEqualTo(content(1));
            disk.corrupt(DataFault.bitRot(a).range(8192, 4096).seed(7));
            if (!checksummed) {
                assertFlipped(read, content(1), flip);
            } else {
                assertThat(read).as("btrfs's data checksum turns the flip into EIO").isEqualTo("Input/output error");
            }

            Path survivor = disk.cutPower();
            Object kept = read(survivor.resolve("a"));
            Corruption zeroed = disk.corrupt(DataFault.zeroed(survivor.resolve("b")).range(4096, 4096));
            Object readB = read(survivor.resolve("b"));
            System.out.printf("%s, survivor: a %s; %s; the read of b: %s%n", fs,
                    kept instanceof byte[] r ? "differs at " + differences(r, content(1)) : kept, zeroed,
                    readB instanceof byte[] r ? differences(r, content(2)).size() + " bytes differ" : readB);
            assertThat(zeroed.toString()).matches("bytes 4096\\+4096 of b zeroed \\(drive bytes \\d+\\+4096\\)");
            assertThat(zeroed.survivor()).isTrue();
            if (!checksummed) {
                assertFlipped(kept, content(1), flip);
                byte[] expected = content(2);
                java.util.Arrays.fill(expected, 4096, 8192, (byte) 0);
                assertThat(readB).isEqualTo(expected);
            } else {
                assertThat(kept).as("the flip made with the power on is durable").isEqualTo("Input/output error");
                assertThat(readB).isEqualTo("Input/output error");
            }
        }
    }

    /**
     * A range of the drive changes the drive with the power on, and the survivor's image after the cut; it drops no
     * file's cached pages, so the file reads changed once they are gone.
     */
    @Test
    void aRangeOfTheDriveChangesTheDriveWithThePowerOnAndTheSurvivorsImageAfterTheCut() throws IOException {
        try (SimulatedDisk disk = TestDisks.ext4(tmp)) {
            Path b = synced(disk, "b", 2);
            long at = FileExtents.of(b, 0, SIZE).get(0).device();
            Corruption zeroed = disk.corrupt(DataFault.zeroedOnDrive(at, 4096));
            TestDisks.uncache(b);
            byte[] expected = content(2);
            java.util.Arrays.fill(expected, 0, 4096, (byte) 0);
            System.out.printf("ext4, power on: %s, where b's first 4 KiB lie%n", zeroed);
            assertThat(zeroed).hasToString("bytes " + at + "+4096 of the drive zeroed");
            assertThat(read(b)).isEqualTo(expected);

            Path survivor = disk.cutPower();
            long survivorAt = FileExtents.of(survivor.resolve("b"), 8192, 4096).get(0).device();
            Corruption flip = disk.corrupt(DataFault.bitRotOnDrive(survivorAt, 4096).seed(2));
            TestDisks.uncache(survivor.resolve("b"));
            System.out.printf("ext4, survivor: %s, where b's third 4 KiB lie%n", flip);
            assertThat(flip.survivor()).isTrue();
            expected[(int) (8192 + flip.offset() - survivorAt)] ^= (byte) (1 << flip.bit());
            assertThat(read(survivor.resolve("b"))).isEqualTo(expected);
        }
    }

    /**
     * btrfs's first data chunk lies at the same logical address as its place on the drive; a 12 MiB file does not fit
     * in it (8 MiB on this drive), and lands in a chunk placed elsewhere, so only the chunk tree finds its bytes.
     */
    @Test
    void onBtrfsTheBytesOfAFileInALaterChunkAreFoundThroughTheChunkTree() throws IOException {
        try (SimulatedDisk disk = TestDisks.btrfs(tmp)) {
            Path big = disk.path().resolve("big");
            byte[] bytes = new byte[12 << 20];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 7 + 3);
            }
            Files.write(big, bytes);
            Corruption c = disk.corrupt(DataFault.bitRot(big).range(10 << 20, 4096).seed(1));
            long logical = FileExtents.of(big, c.offset(), 1).get(0).device();
            Object read = read(big);
            System.out.printf("btrfs, a 12 MiB file: %s, at btrfs's logical address %d; the read: %s%n", c, logical,
                    read instanceof byte[] r ? differences(r, bytes).size() + " bytes differ" : read);
            assertThat(c.drive().get(0).offset()).as("the chunk tree places the logical address elsewhere on the drive")
                    .isNotEqualTo(logical);
            assertThat(read).isEqualTo("Input/output error");

            Path small = disk.path().resolve("small");
            Files.writeString(small, "a few bytes, which btrfs keeps in its metadata");
            assertThatThrownBy(() -> disk.corrupt(DataFault.bitRot(small))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lie inline in the filesystem's metadata");
        }
    }

    @Test
    void onTheFileModelBitRotAndZeroedBytesReadChangedWithThePowerOnAndOnTheSurvivor() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            Path a = synced(disk, "a", 1);
            Path b = synced(disk, "b", 2);
            // tag::data-faults[]
            Corruption flip = disk.corrupt(DataFault.bitRot(a).seed(42));          // "bit 1 of byte 11925 of a flipped"
            Corruption zeroed = disk.corrupt(DataFault.zeroed(b).range(100, 50)); // "bytes 100+50 of b zeroed"
            // end::data-faults[]
            System.out.printf("file model, power on: %s; %s%n", flip, zeroed);
            assertThat(flip).as("the seed picks the byte and the bit, the same in every run")
                    .hasToString("bit 1 of byte 11925 of a flipped");
            assertThat(zeroed).hasToString("bytes 100+50 of b zeroed");
            assertThat(flip.drive()).isEmpty();
            assertFlipped(read(a), content(1), flip);
            byte[] zeros = content(2);
            java.util.Arrays.fill(zeros, 100, 150, (byte) 0);
            assertThat(read(b)).isEqualTo(zeros);

            // tag::on-the-survivor[]
            Path survivor = disk.cutPower();
            // what the cut kept holds the changes made with the power on; a fault now changes what the program reopens
            Corruption again = disk.corrupt(DataFault.bitRot(survivor.resolve("b")).range(SIZE - 10, 1000).seed(3));
            // end::on-the-survivor[]
            assertFlipped(read(survivor.resolve("a")), content(1), flip);
            System.out.printf("file model, survivor: %s%n", again);
            assertThat(again.offset()).isBetween((long) SIZE - 10, (long) SIZE - 1);
            assertThat(again.survivor()).isTrue();
            byte[] zerosAgain = read(survivor.resolve("b")) instanceof byte[] r ? r.clone() : null;
            assertThat(zerosAgain).isNotNull();
            zerosAgain[(int) again.offset()] ^= (byte) (1 << again.bit());
            assertThat(zerosAgain).as("the zeros made with the power on are durable").isEqualTo(zeros);
            assertFlipped(read(survivor.resolve("b")), zeros, again);
        }
    }

    @Test
    void aFaultWithNoPlaceIsRefusedWithTheReason() throws IOException {
        try (SimulatedDisk disk = TestDisks.files(tmp)) {
            Path a = synced(disk, "a", 1);
            Path elsewhere = Files.writeString(tmp.resolve("elsewhere"), "x");
            assertThatThrownBy(() -> disk.corrupt(DataFault.bitRot(elsewhere))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is no regular file of the disk at");
            assertThatThrownBy(() -> disk.corrupt(DataFault.bitRot(a).range(SIZE, 10)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a has " + SIZE + " bytes");
            assertThatThrownBy(() -> disk.corrupt(DataFault.zeroedOnDrive(0, 4096)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the file model has no drive");
            assertThatThrownBy(() -> disk.recordCrashStates(acks -> disk.corrupt(DataFault.bitRot(a))))
                    .as("a recording's crash states would not hold the change").hasStackTraceContaining("recording a workload");
            Path survivor = disk.cutPower();
            assertThatThrownBy(() -> disk.corrupt(DataFault.bitRot(a))).as("the disk's own path is gone after the cut")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is no regular file of the survivor");
            assertThat(read(survivor.resolve("a"))).isEqualTo(content(1));
        }
    }
}

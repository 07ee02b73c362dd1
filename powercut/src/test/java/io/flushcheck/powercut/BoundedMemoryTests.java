package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The drive's memory is bounded by the disk, not the server's heap: a workload writes more than the heap
 * of a server started with a small one, on each model, and what it synced survives. And a server that
 * dies makes the next command throw, naming its death: a cut of a dead drive never passes.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class BoundedMemoryTests {

    private static final int MIB = 1 << 20;
    /** Written, synced, by each workload: four times the server's heap. */
    private static final int WRITTEN_MIB = 256;

    private static Path work(String name, boolean block) throws IOException {
        if (block) {
            Mounts.requireMountTools();
        }
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        return Path.of("target", "powercut", name).toAbsolutePath();
    }

    /** A disk served by a server of its own with {@code heap} at most (the property picks a host by its command). */
    private interface Maker {
        SimulatedDisk make() throws IOException;
    }

    private static SimulatedDisk withServerHeap(String heap, Maker maker) throws IOException {
        System.setProperty(SimulatedDisk.SERVER_HEAP_PROPERTY, heap);
        try {
            return maker.make();
        } finally {
            System.clearProperty(SimulatedDisk.SERVER_HEAP_PROPERTY);
        }
    }

    /** The MiB {@code i} of the workload: its number in every 8 bytes, so a misplaced MiB shows. */
    private static ByteBuffer mib(int i) {
        ByteBuffer b = ByteBuffer.allocate(MIB);
        while (b.hasRemaining()) {
            b.putLong(i * 1_000_003L);
        }
        return b.flip();
    }

    private static void writeSynced(Path file, int mibs) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            for (int i = 0; i < mibs; i++) {
                ByteBuffer b = mib(i);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            ch.force(true);
        }
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    private static void checkSurvived(Path file, int mibs) throws IOException {
        assertThat(Files.size(file)).isEqualTo((long) mibs * MIB);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (int i : List.of(0, 1, mibs / 2, mibs - 1)) {
                ByteBuffer b = ByteBuffer.allocate(MIB);
                while (b.hasRemaining() && ch.read(b, (long) i * MIB + b.position()) > 0) {
                    // read the whole MiB
                }
                assertThat(b.flip()).as("MiB %d", i).isEqualTo(mib(i));
            }
        }
    }

    private static void workloadLargerThanTheHeap(SimulatedDisk disk) throws IOException {
        Path file = disk.path().resolve("big");
        writeSynced(file, WRITTEN_MIB);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(mib(7), 0); // not synced: a cut may keep it or not
        }
        checkSurvived(disk.cutPower().resolve("big"), WRITTEN_MIB);
    }

    @Test
    void theFileModelHoldsMoreThanItsServersHeap() throws IOException {
        Path work = work("bounded-files", false);
        try (SimulatedDisk disk = withServerHeap("64m", () -> SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(512)
                .create(work))) {
            workloadLargerThanTheHeap(disk);
            assertThat(disk.cuts().get(0).unflushedBytes()).as("the write after the sync").isEqualTo(MIB);
        }
        assertThat(work).doesNotExist();
    }

    @Test
    void theBlockModelHoldsMoreThanItsServersHeap() throws IOException {
        Path work = work("bounded-block", true);
        try (SimulatedDisk disk = withServerHeap("64m", () -> SimulatedDisk.builder().model(DiskModel.BLOCK)
                .sizeMiB(512).create(work))) {
            workloadLargerThanTheHeap(disk);
        }
        assertThat(work).doesNotExist();
    }

    @Test
    void theFileModelIsAsLargeAsItsSizeAndAWritePastItFailsWithEnospc() throws IOException {
        Path work = work("sized-files", false);
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(16).create(work)) {
            assertThat(Files.getFileStore(disk.path()).getTotalSpace()).isEqualTo(16L * MIB);
            assertThatThrownBy(() -> writeSynced(disk.path().resolve("big"), 32))
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            assertThat(Files.getFileStore(disk.path()).getUsableSpace()).as("full").isLessThan(MIB);
            Files.delete(disk.path().resolve("big"));
            assertThat(Files.getFileStore(disk.path()).getUsableSpace()).isEqualTo(16L * MIB);
            writeSynced(disk.path().resolve("fits"), 8);
            checkSurvived(disk.cutPower().resolve("fits"), 8);
        }
    }

    private static void killServer(SimulatedDisk disk) throws Exception {
        ProcessHandle server = ProcessHandle.of(disk.serverPid()).orElseThrow();
        server.destroyForcibly();
        server.onExit().get(10, TimeUnit.SECONDS);
    }

    private static void theCutOfADeadServersDriveThrows(SimulatedDisk disk) throws Exception {
        writeSynced(disk.path().resolve("data"), 1);
        killServer(disk);
        assertThatThrownBy(disk::cutPower).isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DriveServerFailedException.class)
                .hasMessageContaining("(pid " + disk.serverPid() + ") died").hasMessageContaining("signal 9");
        assertThat(disk.cuts()).as("no cut was made, so none passed").isEmpty();
        assertThatThrownBy(disk::flushes).hasCauseInstanceOf(DriveServerFailedException.class);
    }

    @Test
    void aKilledServerMakesTheNextCutOfTheFileModelThrow() throws Exception {
        Path work = work("killed-files", false);
        // A server of its own (its heap picks it), so that no other disk loses its server.
        try (SimulatedDisk disk = withServerHeap("65m", () -> SimulatedDisk.builder().model(DiskModel.FILE)
                .create(work))) {
            theCutOfADeadServersDriveThrows(disk);
        }
        assertThat(work).doesNotExist();
    }

    @Test
    void aKilledServerMakesTheNextCutOfTheBlockModelThrow() throws Exception {
        Path work = work("killed-block", true);
        try (SimulatedDisk disk = withServerHeap("66m", () -> SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(64)
                .create(work))) {
            theCutOfADeadServersDriveThrows(disk);
        }
        assertThat(work).doesNotExist();
    }

    /**
     * The server's store on a tmpfs of 8 MiB, under a file model of 64 MiB: the store fails before the disk
     * is full, and that is the server's failure, not an answer of the disk: the cut throws.
     */
    @Test
    void aStoreThatCannotBeWrittenFailsTheDisksNextCommandNotJustTheWrite() throws Exception {
        Mounts.requireMountTools();
        Path base = Files.createDirectories(work("small-store", false));
        Shell.run("mount", "-t", "tmpfs", "-o", "size=8m", "flushcheck-small-store", base.toString());
        try {
            try (SimulatedDisk disk = withServerHeap("67m", () -> SimulatedDisk.builder().model(DiskModel.FILE)
                    .sizeMiB(64).create(base.resolve("disk")))) {
                assertThatThrownBy(() -> writeSynced(disk.path().resolve("big"), 16)).isInstanceOf(IOException.class);
                assertThatThrownBy(disk::cutPower).isInstanceOf(UncheckedIOException.class)
                        .hasCauseInstanceOf(DriveServerFailedException.class).hasMessageContaining("the drive's server failed");
                assertThat(disk.cuts()).isEmpty();
            }
        } finally {
            Shell.run("umount", base.toString());
            Files.delete(base);
        }
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * A test that keeps its files open past the cut, as a cut leaves an embedded store's: its disk closes without
 * waiting for them, and the kernel frees each loop device they hold when they close.
 */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class HeldFilesTests {

    private static final int INVOCATIONS = 20;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    @Test
    void aClassWhoseInvocationsKeepTheirFilesOpenEndsWithNoneOfItsLoopDevicesAttached() throws Exception {
        Fixtures.StoreLeftOpen.reset();
        Events events = FixtureRuns.run(Fixtures.StoreLeftOpen.class);
        Fixtures.StoreLeftOpen.closeHeld();
        for (Event failed : events.failed().list()) {
            throw new AssertionError(FixtureRuns.name(failed) + ": " + FixtureRuns.message(failed));
        }
        events.assertStatistics(s -> s.started(INVOCATIONS).succeeded(INVOCATIONS));
        assertThat(Fixtures.StoreLeftOpen.held).as("invocations whose cut filesystem's loop device its open file still"
                + " held after its disk closed: the class kept its files open").isEqualTo(INVOCATIONS);

        List<Device> left = new ArrayList<>(Fixtures.StoreLeftOpen.DEVICES);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!left.isEmpty()) {
            left.removeIf(d -> !d.attached());
            if (System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(20);
        }
        assertThat(left).as("loop devices of the class still attached once its files are closed").isEmpty();

        List<Event> finished = events.finished().list();
        Duration closing = Duration.ZERO;
        for (int i = 0; i < INVOCATIONS; i++) {
            Instant end = Fixtures.StoreLeftOpen.ENDS.get(i);
            closing = closing.plus(Duration.between(end, finished.get(i).getTimestamp()));
        }
        // Each disk closes while its filesystem is held: a close that waited for that would wait out a deadline.
        assertThat(closing).as("the %d disks' closes together, each with its filesystem held", INVOCATIONS)
                .isLessThan(Duration.ofSeconds(2L * INVOCATIONS));
    }

    @Test
    @ResourceLock(SimulatedPowerLoss.LOCK)
    void crashStatesCheckedByAVerificationThatLeavesItsFilesOpenAreNotWaitedFor() throws Exception {
        Path work = Path.of("/dev/shm", "flushcheck-held-states-" + ProcessHandle.current().pid());
        List<RandomAccessFile> open = new ArrayList<>();
        List<Device> devices = new ArrayList<>();
        try {
            CrashStateReport report;
            try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32)
                    .mkfsOptions("-b", "4096").create(work)) {
                Path store = disk.path().resolve("store");
                CrashStates states = disk.recordCrashStates(acknowledged -> {
                    try (RandomAccessFile f = new RandomAccessFile(store.toFile(), "rw")) {
                        for (int i = 1; i <= 4; i++) {
                            f.write(("record " + i + "\n").getBytes(StandardCharsets.UTF_8));
                            f.getFD().sync();
                            acknowledged.add("record " + i);
                        }
                    }
                });
                report = states.check(1000, (survivor, mustSurvive) -> {
                    Path kept = survivor.resolve("store");
                    List<String> lines = Files.exists(kept) ? Files.readAllLines(kept) : List.of();
                    assertThat(lines).containsAll(mustSurvive);
                    if (Files.exists(kept)) { // a store opened on the state to check it, and never closed
                        open.add(new RandomAccessFile(kept.toFile(), "r"));
                        devices.add(Device.of(io.flushcheck.powercut.internal.kernel.Mounts.deviceAt(survivor)));
                    }
                });
            }
            report.assertPassed();
            assertThat(open).as("states whose store the verification left open").hasSizeGreaterThan(3);
            // Each state's device is detached while its file holds it: a wait for its release waits out a deadline.
            assertThat(report.seconds()).as("%d states checked, %d with a file left open", report.checked(),
                    open.size()).isLessThan(2.0 * open.size());
            assertThat(devices.stream().filter(Device::attached)).as("devices still held by the open files")
                    .isNotEmpty();
        } finally {
            for (RandomAccessFile f : open) {
                f.close();
            }
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (devices.stream().anyMatch(Device::attached) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(devices.stream().filter(Device::attached)).as("devices attached once the files are closed")
                .isEmpty();
    }

    @Test
    @ResourceLock(SimulatedPowerLoss.LOCK)
    void aFileHeldOpenAcrossTheCutFailsAsOnADiskThatWentAway() throws Exception {
        Path work = Path.of("/dev/shm", "flushcheck-held-cut-" + ProcessHandle.current().pid());
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).create(work);
             RandomAccessFile store = storeHeldAcrossTheCut(disk)) {
            store.seek(0);
            assertThatThrownBy(store::read).as("a read of it").isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
        }
    }

    @Test
    void onTheFileModelAWriteToAFileHeldOpenAcrossTheCutFails() throws Exception {
        Requirements.requireFileModel();
        Path work = Path.of(System.getProperty("java.io.tmpdir"), "flushcheck-held-file-" + ProcessHandle.current().pid());
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(work)) {
            storeHeldAcrossTheCut(disk).close(); // its reads still answer on this model: only its writes fail
        }
    }

    /**
     * A store on {@code disk} with one synced record, held open across a cut: the survivor has the record, and a write
     * to the store after the cut fails with EIO. The caller closes the store.
     */
    private static RandomAccessFile storeHeldAcrossTheCut(SimulatedDisk disk) throws IOException {
        RandomAccessFile store = new RandomAccessFile(disk.path().resolve("store").toFile(), "rw");
        store.write("record 1\n".getBytes(StandardCharsets.UTF_8));
        store.getFD().sync();
        Path survivor = disk.cutPower();
        assertThat(Files.readAllLines(survivor.resolve("store"))).containsExactly("record 1");
        assertThatThrownBy(() -> store.write("record 2\n".getBytes(StandardCharsets.UTF_8)))
                .as("a write to the file held open where the power went").isInstanceOf(IOException.class)
                .hasMessageContaining("Input/output error");
        return store;
    }

    /**
     * A loop device as the kernel named it during an invocation: its name, its file (without the " (deleted)" of a
     * file deleted since) and the device of that file's filesystem; both empty once it is free.
     */
    record Device(String name, String backingFile, String backingDevice) {

        static Device of(String name) {
            String file;
            try {
                file = Files.readString(Path.of("/sys/block", Path.of(name).getFileName().toString(), "loop",
                        "backing_file")).trim();
            } catch (IOException free) {
                return new Device(name, "", "");
            }
            Shell.Result dev = Shell.exec(List.of("losetup", "--list", "--noheadings", "--output", "BACK-MAJ:MIN",
                    name));
            return new Device(name, file.replaceFirst(" \\(deleted\\)$", ""),
                    dev.exit() == 0 ? dev.output().trim() : "");
        }

        /**
         * Still attached to the same file: the kernel names a file by its path, or from its filesystem's root once
         * that filesystem (the drive's FUSE mount) is unmounted lazily; on the same device.
         */
        boolean attached() {
            Device now = of(name);
            return !now.backingDevice.isEmpty() && now.backingDevice.equals(backingDevice)
                    && (now.backingFile.equals(backingFile)
                            || backingFile.endsWith(now.backingFile) && now.backingFile.startsWith("/"));
        }
    }

    static class Fixtures {

        /** Appends records to a file it never closes, cuts, and opens the survivor's copy without closing it. */
        @SimulatedPowerLoss(sizeMiB = 32)
        static class StoreLeftOpen {
            static final List<RandomAccessFile> OPEN = new CopyOnWriteArrayList<>();
            static final List<Device> DEVICES = new CopyOnWriteArrayList<>();
            /** The devices of the invocation that ran last. */
            static final List<Device> LAST = new CopyOnWriteArrayList<>();
            static int held;
            static final List<Instant> ENDS = new CopyOnWriteArrayList<>();

            static void reset() {
                OPEN.clear();
                DEVICES.clear();
                LAST.clear();
                held = 0;
                ENDS.clear();
            }

            /** Closes the files the last invocation left open, noting whether they still held its cut filesystem. */
            static void closeHeld() throws IOException {
                if (!LAST.isEmpty() && LAST.get(0).attached()) {
                    held++;
                }
                LAST.clear();
                for (RandomAccessFile f : OPEN) {
                    f.close();
                }
                OPEN.clear();
            }

            @RepeatedPowerCut(times = INVOCATIONS, seed = 7)
            void storeLeftOpen(SimulatedDisk disk) throws IOException {
                // The last invocation's files, closed long after its disk was, as a program ends after its disk.
                closeHeld();
                LAST.add(Device.of(disk.loopDevice()));
                RandomAccessFile store = new RandomAccessFile(disk.path().resolve("store").toFile(), "rw");
                OPEN.add(store);
                int acknowledged = 0;
                for (int i = 1; i <= 6; i++) {
                    try {
                        store.write(("record " + i + "\n").getBytes(StandardCharsets.UTF_8));
                        store.getFD().sync();
                        acknowledged++;
                    } catch (IOException powerGone) {
                        break;
                    }
                }
                Path survivor = disk.cutPower();
                LAST.add(Device.of(io.flushcheck.powercut.internal.kernel.Mounts.deviceAt(survivor)));
                DEVICES.addAll(LAST);
                Path kept = survivor.resolve("store");
                List<String> lines = Files.exists(kept) ? Files.readAllLines(kept) : List.of();
                assertThat(lines.size()).as("acknowledged records survive").isGreaterThanOrEqualTo(acknowledged);
                if (Files.exists(kept)) {
                    OPEN.add(new RandomAccessFile(kept.toFile(), "r"));
                }
                ENDS.add(Instant.now());
            }
        }
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A recording saved, loaded back in another work directory and checked there, whole or by shards: the states,
 * their outcomes and what must survive at each are those of the recording checked where it was made.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class SavedCrashStatesTests {

    /** Enough states to reach the careless log's reordered failures, few enough to check three times quickly. */
    private static final int BOUND = 40;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static Path scratch(String name) {
        return Path.of("/dev/shm", "flushcheck-saved-" + name + "-" + ProcessHandle.current().pid());
    }

    @Test
    void aLoadedRecordingHasTheSameStatesOutcomesAndIdAsTheOneSaved() throws Exception {
        Path saved = scratch("round-trip");
        Path work = scratch("round-trip-work");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096")
                .create(scratch("round-trip-disk"))) {
            Path log = disk.path().resolve("log");
            BatchLog.create(log);
            CrashStates recorded = disk.recordCrashStates(acks -> BatchLog.appendAll(log, false, acks));
            String id = recorded.save(saved);
            CrashStateReport here = recorded.check(BOUND, SavedCrashStatesTests::verify);

            CrashStates loaded = CrashStates.load(saved, work);
            // What was checked is what is read: the files put in the recording's places since are not.
            Path secret = Files.write(scratch("root-only"), "root:*:20228:0:99999:7:::\n".repeat(1000).getBytes());
            Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
            for (String name : List.of(SavedRecording.BASE, SavedRecording.LOG)) {
                Files.move(saved.resolve(name), saved.resolve(name + ".moved"));
                Files.createSymbolicLink(saved.resolve(name), secret);
            }

            assertThat(loaded.recordingId()).isEqualTo(id).hasSize(64);
            assertThat(loaded.acknowledged().all()).isEqualTo(recorded.acknowledged().all()).isNotEmpty();
            assertThat(loaded.writes()).isEqualTo(recorded.writes());
            assertThat(loaded.epochs()).isEqualTo(recorded.epochs());
            // Loaded here on three workers, each mounting its states without following links: the same outcomes.
            CrashStateReport there = loaded.inParallel(3).check(BOUND, SavedCrashStatesTests::verify);
            assertThat(outcomes(there)).isEqualTo(outcomes(here));
            assertThat(there.failing()).isPositive();
            // The explanation names files by their places and compares names with the view as the recording ended:
            // both came through the manifest.
            assertThat(there.failures().get(0).explanation()).isEqualTo(here.failures().get(0).explanation());
            Path image = saved.resolve(SavedRecording.BASE);
            Process stat = new ProcessBuilder("stat", "-c", "%b", image.toString()).start();
            long allocated = Long.parseLong(new String(stat.getInputStream().readAllBytes()).trim()) * 512;
            assertThat(allocated).as("the saved image is sparse").isLessThan(Files.size(image.resolveSibling(
                    SavedRecording.BASE + ".moved")) / 2);
            loaded.close();
        } finally {
            Files.deleteIfExists(scratch("root-only"));
            delete(saved);
            delete(work);
        }
    }

    @Test
    void shardsCheckEachStateOnceAndTogetherFindWhatOneCheckFinds() throws Exception {
        Path saved = scratch("shards");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096")
                .create(scratch("shards-disk"))) {
            Path log = disk.path().resolve("log");
            BatchLog.create(log);
            CrashStates states = disk.recordCrashStates(acks -> BatchLog.appendAll(log, false, acks));
            CrashStateReport whole = states.check(BOUND, SavedCrashStatesTests::verify);
            int shards = 3;
            List<CrashStateReport> parts = new ArrayList<>();
            for (int s = 0; s < shards; s++) {
                parts.add(states.inParallel(2).check(BOUND, s, shards, SavedCrashStatesTests::verify));
            }
            for (int i = 0; i < whole.states().size(); i++) {
                int at = i;
                List<CrashStateReport.State> checkedBy = parts.stream().map(p -> p.states().get(at))
                        .filter(CrashStateReport.State::checked).toList();
                assertThat(checkedBy).as("state " + i + " is checked by one shard").hasSize(1);
                assertThat(checkedBy.get(0).state()).isEqualTo(whole.states().get(i).state());
                assertThat(checkedBy.get(0).passed()).isEqualTo(whole.states().get(i).passed());
                assertThat(parts.get(i % shards).states().get(i).checked()).isTrue();
            }
            assertThat(parts.stream().mapToInt(CrashStateReport::checked).sum()).isEqualTo(whole.checked());
            assertThat(parts.stream().mapToInt(CrashStateReport::failing).sum()).isEqualTo(whole.failing()).isPositive();
            for (CrashStateReport p : parts) {
                assertThat(p.checked() + p.otherShards()).isEqualTo(whole.checked());
                assertThat(p.states().stream().filter(s -> !s.checked()).noneMatch(CrashStateReport.State::passed))
                        .as("a state left to another shard is not reported passed").isTrue();
            }
            assertThatThrownBy(() -> states.check(BOUND, 3, 3, SavedCrashStatesTests::verify))
                    .isInstanceOf(IllegalArgumentException.class);
        } finally {
            delete(saved);
        }
    }

    @Test
    void aRecordingChangedSinceItWasSavedIsRefusedNamingTheFile() throws Exception {
        Path saved = scratch("changed");
        Path disk = scratch("changed-disk");
        try (SimulatedDisk d = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).mkfsOptions("-b", "4096")
                .create(disk)) {
            Path log = d.path().resolve("log");
            BatchLog.create(log);
            d.recordCrashStates(acks -> BatchLog.appendAll(log, true, acks)).save(saved);
        }
        try {
            for (String name : List.of(SavedRecording.LOG, SavedRecording.BASE)) {
                Path file = saved.resolve(name);
                // One byte in the middle changed, the size kept: in the image it lies in a hole or a written block.
                long at = Files.size(file) / 2;
                byte[] was = read(file, at);
                write(file, at, new byte[] {(byte) (was[0] ^ 0x5a)});
                assertThatThrownBy(() -> CrashStates.load(saved, scratch("changed-work")))
                        .isInstanceOf(UnreadableRecordingException.class)
                        .hasMessageContaining(name + " is not what was saved: its SHA-256 is ");
                write(file, at, was);
            }
            Path notADirectory = Files.writeString(scratch("changed-file"), "x");
            try {
                assertThatThrownBy(() -> CrashStates.load(saved, notADirectory.resolve("work")))
                        .isInstanceOf(IOException.class).isNotInstanceOf(UnreadableRecordingException.class);
            } finally {
                Files.delete(notADirectory);
            }
            CrashStates whole = CrashStates.load(saved, scratch("changed-work"));
            assertThat(whole.writes()).isPositive();
        } finally {
            delete(saved);
            delete(scratch("changed-work"));
        }
    }

    private static byte[] read(Path file, long at) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            c.read(b, at);
            return b.array();
        }
    }

    private static void write(Path file, long at, byte[] bytes) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(bytes), at);
        }
    }

    @Test
    void aDirectoryWithoutAWholeRecordingIsRefused() throws Exception {
        Path saved = Files.createDirectories(scratch("broken"));
        try {
            assertThatThrownBy(() -> CrashStates.load(saved, scratch("broken-work")))
                    .isInstanceOf(UnreadableRecordingException.class).hasMessageContaining("no saved recording");
            Files.writeString(saved.resolve(SavedRecording.MANIFEST), "flushcheck recording 1\nfs ext4\n");
            assertThatThrownBy(() -> CrashStates.load(saved, scratch("broken-work")))
                    .isInstanceOf(UnreadableRecordingException.class)
                    .hasMessageContaining("record the workload again with this version");
            Files.writeString(saved.resolve(SavedRecording.MANIFEST), "flushcheck recording 3\nmodel block\nfs ext4\natomic-unit 4096\n"
                    + "base 4096 " + "0".repeat(64) + "\nlog 9 " + "0".repeat(64) + "\n");
            assertThatThrownBy(() -> CrashStates.load(saved, scratch("broken-work")))
                    .isInstanceOf(UnreadableRecordingException.class).hasMessageContaining("base.img is missing");
        } finally {
            delete(saved);
        }
    }

    private static void verify(Path survivor, List<String> mustSurvive) throws IOException {
        BatchLog.verify(survivor.resolve("log"), mustSurvive);
    }

    private static List<String> outcomes(CrashStateReport report) {
        return report.states().stream().map(s -> s.state() + (s.passed() ? " passed" : " failed")).toList();
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}

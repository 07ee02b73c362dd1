package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Syncs that fail with the power on: the drive fails its flushes, the error reaches the program through
 * the real kernel filesystem (or the file model), and a cut afterwards shows what the program's
 * acknowledgements were worth.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class FailingSyncTests {

    private static final int RECORDS = 10;
    private static final int BEFORE_FAULT = 3;

    @TempDir
    Path tmp;

    private static void overwrite(Path file, String text) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), 0);
            ch.force(false);
        }
    }

    private static void syncDir(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private SimulatedDisk ext4() throws IOException {
        return TestDisks.ext4(tmp);
    }

    private SimulatedDisk files() throws IOException {
        return TestDisks.files(tmp);
    }

    @Test
    void onExt4AnFdatasyncWhoseFlushFailsReturnsEioAndItsDataIsNotMadeDurable() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            Path a = disk.path().resolve("a");
            overwrite(a, "old!");
            syncDir(disk.path());
            disk.failFlushesAfter(disk.flushes(), true);
            assertThatThrownBy(() -> overwrite(a, "new!")).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            assertThat(disk.failedFlushes()).isPositive();
            assertThat(Files.readString(disk.cutPower().resolve("a"))).isEqualTo("old!");
        }
    }

    @Test
    void onTheFileModelTheFailedSyncReturnsEioAndOnceTheRetrySucceedsAndMakesItDurable() throws IOException {
        try (SimulatedDisk disk = files()) {
            Path a = disk.path().resolve("a");
            overwrite(a, "old!");
            syncDir(disk.path());
            disk.failFlushesAfter(disk.flushes(), false);
            assertThatThrownBy(() -> overwrite(a, "new!")).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            assertThat(disk.failedFlushes()).isEqualTo(1);
            try (FileChannel ch = FileChannel.open(a, StandardOpenOption.WRITE)) {
                ch.force(false);
            }
            assertThat(Files.readString(disk.cutPower().resolve("a"))).isEqualTo("new!");
        }
    }

    /** Appends records, each synced; what it does when a sync fails is the journal's character. */
    private static final class Journal {
        private final Path file;
        private final boolean carriesOn;
        final List<String> acknowledged = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        private boolean stopped;

        Journal(Path file, boolean carriesOn) throws IOException {
            this.file = file;
            this.carriesOn = carriesOn;
            Files.createFile(file);
            syncDir(file.getParent());
        }

        /** Acknowledges the record, or says why not. */
        boolean append(String record) {
            if (stopped) {
                return false;
            }
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
                ch.write(ByteBuffer.wrap((record + "\n").getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            } catch (IOException e) {
                errors.add(record + ": " + e.getMessage());
                if (!carriesOn) {
                    stopped = true; // reports the failure and acknowledges nothing more
                    return false;
                }
                // logs it and carries on, as PostgreSQL did before 2018
            }
            acknowledged.add(record);
            return true;
        }
    }

    /** The acknowledged records missing from the survivor. */
    private static List<String> lost(Path survivor, List<String> acknowledged) throws IOException {
        Path log = survivor.resolve("journal");
        List<String> kept = Files.exists(log) ? Files.readAllLines(log) : List.of();
        List<String> lost = new ArrayList<>(acknowledged);
        lost.removeAll(kept);
        return lost;
    }

    private List<String> run(SimulatedDisk disk, boolean carriesOn, boolean persistent) throws IOException {
        Journal j = new Journal(disk.path().resolve("journal"), carriesOn);
        for (int i = 1; i <= RECORDS; i++) {
            if (i == BEFORE_FAULT + 1) {
                disk.failFlushesAfter(disk.flushes(), persistent);
            }
            j.append("record " + i);
        }
        assertThat(j.errors).as("the program met the failed sync").isNotEmpty();
        System.out.printf("%s journal on %s (%s failure): acknowledged %s; errors %s%n", carriesOn ? "carrying-on"
                : "stopping", disk.model(), persistent ? "persistent" : "one", j.acknowledged, j.errors);
        return lost(disk.cutPower(), j.acknowledged);
    }

    @Test
    void aJournalThatStopsAtAFailedSyncKeepsEveryAcknowledgedRecordOnExt4() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            assertThat(run(disk, false, true)).isEmpty();
        }
    }

    @Test
    void aJournalThatLogsTheFailureAndCarriesOnLosesWhatItAcknowledgedAfterOnExt4() throws IOException {
        try (SimulatedDisk disk = ext4()) {
            assertThat(run(disk, true, true)).as("acknowledged records lost").contains("record " + (BEFORE_FAULT + 1))
                    .doesNotContain("record " + BEFORE_FAULT);
        }
    }

    @Test
    void theSameTwoJournalsOnTheFileModel() throws IOException {
        try (SimulatedDisk disk = files()) {
            assertThat(run(disk, false, true)).isEmpty();
        }
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("files2"))) {
            assertThat(run(disk, true, true)).contains("record " + (BEFORE_FAULT + 1));
        }
    }
}

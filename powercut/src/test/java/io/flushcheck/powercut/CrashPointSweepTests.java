package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/** A cut at the k-th flush, swept over a workload: every crash point leaves a prefix of what it synced. */
@ResourceLock(SimulatedPowerLoss.LOCK)
class CrashPointSweepTests {

    private static final int RECORDS = 8;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static SimulatedDisk disk() throws IOException {
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32)
                .create(Path.of("/dev/shm", "flushcheck-sweep-" + ProcessHandle.current().pid()));
    }

    /**
     * Appends RECORDS records, each synced before the next: an append-only log.
     *
     * @return the records acknowledged: whose sync returned before one failed (the power had gone)
     */
    private static int workload(Path dir) {
        for (int i = 1; i <= RECORDS; i++) {
            try {
                SimulatedPowerLossExtensionTests.append(dir.resolve("log"), "record " + i + "\n", true);
            } catch (IOException powerGone) {
                return i - 1;
            }
        }
        return RECORDS;
    }

    private static String records(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append("record ").append(i).append('\n');
        }
        return sb.toString();
    }

    @Test
    void everyCrashPointOfASyncedLogLeavesAPrefixOfItsRecords() throws IOException {
        long start;
        long total;
        try (SimulatedDisk disk = disk()) {
            start = disk.flushes();
            workload(disk.path());
            total = disk.flushes() - start;
        }
        assertThat(total).as("flushes of %d synced appends", RECORDS).isGreaterThanOrEqualTo(RECORDS);
        int previous = 0;
        for (long k = 1; k < total; k += Math.max(1, total / 6)) {
            try (SimulatedDisk disk = disk()) {
                disk.cutAfterFlushes(disk.flushes() + k);
                int acknowledged = workload(disk.path());
                assertThat(acknowledged).as("a sync after the cut at flush %d of %d fails", k, total).isLessThan(RECORDS);
                Path survivor = disk.cutPower();
                assertThat(disk.cuts().get(0).armed()).as("the power went at the armed flush").isTrue();
                String log = Files.exists(survivor.resolve("log")) ? Files.readString(survivor.resolve("log")) : "";
                int n = (int) log.lines().count();
                assertThat(log).as("cut at flush %d of %d", k, total).isEqualTo(records(n));
                assertThat(n).as("acknowledged records survive a cut at flush %d", k).isGreaterThanOrEqualTo(acknowledged);
                assertThat(n).as("records kept when cut at flush %d", k).isGreaterThanOrEqualTo(previous);
                previous = n;
            }
        }
        assertThat(previous).as("a late cut keeps most of the log").isGreaterThanOrEqualTo(RECORDS / 2);
    }

    @Test
    void aCutDuringAFlushFailsItsSyncAndKeepsASeededSubsetOfWhatCameBefore() throws IOException {
        long total;
        try (SimulatedDisk disk = disk()) {
            long start = disk.flushes();
            workload(disk.path());
            total = disk.flushes() - start;
        }
        String[] kept = new String[2];
        for (int run = 0; run < 2; run++) {
            try (SimulatedDisk disk = disk()) {
                long k = disk.flushes() + total / 2;
                disk.cutDuringFlush(k, 11);
                int acknowledged = workload(disk.path());
                assertThat(acknowledged).as("the sync waiting for flush %d fails", k).isLessThan(RECORDS);
                Path survivor = disk.cutPower();
                PowerCut cut = disk.cuts().get(0);
                assertThat(cut.armed()).isTrue();
                assertThat(cut.flushes()).as("the drive stopped before flush %d", k).isEqualTo(k - 1);
                assertThat(cut.seed()).isEqualTo(11L);
                assertThat(cut.reproducedBy()).isEqualTo("cutDuringFlush(" + k + ", 11)");
                assertThat(cut.unflushedBytes()).as("the writes since flush %d were in the cache", k - 1).isPositive();
                String log = Files.exists(survivor.resolve("log")) ? Files.readString(survivor.resolve("log")) : "";
                int n = (int) log.lines().count();
                assertThat(log).isEqualTo(records(n));
                assertThat(n).isGreaterThanOrEqualTo(acknowledged);
                kept[run] = cut.keptBytes() + " " + log;
            }
        }
        assertThat(kept[1]).as("the same seed keeps the same sectors").isEqualTo(kept[0]);
    }

    @Test
    void aCrashPointAlreadyPassedIsRefused() throws IOException {
        try (SimulatedDisk disk = disk()) {
            long now = disk.flushes();
            assertThatThrownBy(() -> disk.cutAfterFlushes(now)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has already happened");
        }
    }
}

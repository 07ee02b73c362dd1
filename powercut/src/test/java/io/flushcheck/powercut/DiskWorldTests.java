package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.MarkedProgram;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@link SimulatedDisk#start}: a program's world dies with the drive's power, however the power goes, and
 * the cut returns once each of its processes is reaped; its daemon here is a session leader of its own
 * that syncs a file on the disk in a loop, as a server's workers would.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class DiskWorldTests {

    private static final long SIZE = 64L << 20;

    @TempDir
    Path tmp;

    private MarkedProgram daemon;

    @BeforeEach
    void needs() throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.requireCommand("unshare", "util-linux");
        daemon = MarkedProgram.copy(Path.of("/bin/sh"), tmp);
    }

    private static Path work(String name) {
        return Path.of("target", "powercut", name).toAbsolutePath();
    }

    /** A session leader that appends to a file on the disk and syncs it, forever; its parent waits. */
    private ProcessBuilder syncingDaemon(Path fs) {
        String loop = "while :; do echo x >> " + fs + "/log; sync " + fs + "/log; done";
        return new ProcessBuilder("sh", "-c", "setsid " + daemon.path() + " -c '" + loop + "' & sleep 300");
    }

    @Test
    void anArmedCutKillsTheWorldBeforeTheFlushReturnsAndTheCutReturnsOnceItIsReaped() throws Exception {
        Path work = work("world-armed");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE).create(work)) {
            disk.cutAfterFlushes(disk.flushes() + 20);
            ProcessWorld world = disk.start(syncingDaemon(disk.path()));
            assertThat(world.waitFor(30, TimeUnit.SECONDS)).as("the world died with the power").isTrue();
            assertThat(world.process().exitValue()).isEqualTo(137);
            assertThat(daemon.processes()).as("nothing of the world, not even a zombie").isEmpty();
            Path survivor = disk.cutPower();
            assertThat(disk.cuts().get(0).armed()).isTrue();
            long lines = Files.readAllLines(survivor.resolve("log")).size();
            assertThat(lines).as("each line synced before the cut, none after").isBetween(1L, 20L);
        }
    }

    @Test
    void aCalledCutReturnsOnlyOnceEveryProcessOfTheWorldIsReaped() throws Exception {
        Path work = work("world-called");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE).create(work)) {
            ProcessWorld world = disk.start(syncingDaemon(disk.path()));
            daemon.awaitAlive(1, 10_000);
            while (disk.flushes() < 10) {
                Thread.sleep(5);
            }
            disk.cutPower(3);
            assertThat(world.isAlive()).isFalse();
            assertThat(daemon.processes()).as("nothing of the world, not even a zombie").isEmpty();
        }
    }

    @Test
    void aWorldStartedAfterTheCutIsKilledAtOnce() throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE)
                .create(work("world-after"))) {
            disk.cutPower();
            ProcessWorld late = disk.start(new ProcessBuilder(daemon.path(), "-c", "sleep 300"));
            assertThat(late.waitFor(10, TimeUnit.SECONDS)).as("killed as it started").isTrue();
            assertThat(late.process().exitValue()).as("killed at the gate or just after").isIn(125, 137);
        }
        assertThat(daemon.processes()).isEmpty();
    }

    @Test
    void worldsStillRunningWhenTheDiskClosesAreKilledFirst() throws Exception {
        Path work = work("world-close");
        ProcessWorld world;
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeBytes(SIZE).create(work)) {
            world = disk.start(syncingDaemon(disk.path()));
            daemon.awaitAlive(1, 10_000);
        }
        assertThat(world.isAlive()).isFalse();
        assertThat(daemon.processes()).isEmpty();
        assertThat(work).doesNotExist();
    }
}

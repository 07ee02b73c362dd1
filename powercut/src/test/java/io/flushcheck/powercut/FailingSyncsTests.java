package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.name;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** @FailingSyncs as a user's test meets it: run through the test kit, on the file model (no root needed). */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class FailingSyncsTests {

    private static final int RECORDS = 6;

    @BeforeEach
    void needs() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    /** The workload of the fixtures: RECORDS records, each acknowledged once its append returned. */
    static void journal(SimulatedDisk disk, boolean carriesOn) throws IOException {
        AcknowledgedRecords acks = AcknowledgedRecords.on(disk);
        try {
            SyncedJournal journal = SyncedJournal.create(disk.path().resolve("journal"), carriesOn);
            for (int i = 1; i <= RECORDS; i++) {
                journal.append("record " + i);
                acks.add("record " + i);
            }
        } catch (IOException failedSync) {
            // the stopping journal acknowledges nothing more
        }
        acks.assertDurable(SyncedJournal.read(disk.cutPower().resolve("journal")));
    }

    @Test
    void aSweepRunsOnceWithoutAFaultThenOnceAtEachFlushOfTheWorkloadAndTheJournalThatStopsPassesThemAll() {
        Events events = run(Fixtures.Stops.class, Map.of());
        List<String> names = events.started().stream().map(FixtureRuns::name).toList();
        // a directory sync at creation, then one sync per record
        assertThat(names).hasSize(1 + RECORDS + 1);
        assertThat(names.get(0)).isEqualTo("[1] no failing flush, counting the workload's flushes");
        assertThat(names.get(1)).isEqualTo("[2] flush 1 of 7 fails with ENOSPC, and every one after");
        assertThat(names.get(RECORDS + 1)).isEqualTo("[8] flush 7 of 7 fails with ENOSPC, and every one after");
        events.assertStatistics(s -> s.succeeded(1 + RECORDS + 1).failed(0));
    }

    @Test
    void theJournalThatCarriesOnFailsEveryFaultPointWithTheRecordsItLostAndHowToRepeatThePoint() {
        Events events = run(Fixtures.CarriesOn.class, Map.of());
        // flush 1 is the directory's sync at the journal's creation: it stops there, having acknowledged nothing
        events.assertStatistics(s -> s.started(1 + RECORDS + 1).succeeded(2).failed(RECORDS));
        Event third = events.failed().stream().filter(e -> name(e).startsWith("[4] ")).findFirst().orElseThrow();
        assertThat(name(third)).isEqualTo("[4] flush 3 of 7 fails with ENOSPC, and every one after");
        // flush 3 is record 2's sync: records 2 to 6 were acknowledged after it failed, and are gone
        assertThat(message(third)).startsWith("5 of 6 acknowledged records did not survive the cut: record 2, record 3,"
                        + " record 4, record 5, record 6; all of them acknowledged after the drive had failed a sync")
                .contains("flush 3 of 7 fails with ENOSPC")
                .contains("to repeat only this invocation: @FailingSyncs(after = 2, errno = Errno.ENOSPC, persistent = true),"
                        + " or -D" + FailingSyncs.AFTER_PARAMETER + "=2 with only this test selected");
    }

    @Test
    void theRepeatParameterRunsOnlyThatPoint() {
        Events events = run(Fixtures.CarriesOn.class, Map.of(FailingSyncs.AFTER_PARAMETER, "2"));
        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(name(events.failed().stream().findFirst().orElseThrow())).isEqualTo("[1] flush 3 fails with ENOSPC, and every one after");
    }

    @Test
    void aSingleFaultPointFailsOnceAndAJournalThatRetriesItsSyncKeepsEverything() {
        Events events = run(Fixtures.OnceOnFiles.class, Map.of());
        events.assertStatistics(s -> s.started(1).succeeded(1));
        assertThat(name(events.started().stream().findFirst().orElseThrow())).isEqualTo("[1] flush 2 fails with EIO, once");
    }

    static class Fixtures {

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class Stops {
            @FailingSyncs(sweep = true, errno = Errno.ENOSPC)
            void nothingAcknowledgedIsLost(SimulatedDisk disk) throws IOException {
                journal(disk, false);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class CarriesOn {
            @FailingSyncs(sweep = true, errno = Errno.ENOSPC)
            void nothingAcknowledgedIsLost(SimulatedDisk disk) throws IOException {
                journal(disk, true);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class OnceOnFiles {
            @FailingSyncs(after = 1, persistent = false)
            void aFailedSyncFailsOnlyOnce(SimulatedDisk disk) throws IOException {
                Path f = disk.path().resolve("a");
                Files.writeString(f, "a");
                try (var ch = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.WRITE)) {
                    ch.force(true); // flush 1
                    try {
                        ch.force(true); // flush 2: fails
                        throw new AssertionError("flush 2 did not fail");
                    } catch (IOException expected) {
                        assertThat(expected).hasMessageContaining("Input/output error");
                    }
                    ch.force(true); // flush 3 works again
                }
                assertThat(disk.failedFlushes()).isEqualTo(1);
            }
        }
    }
}

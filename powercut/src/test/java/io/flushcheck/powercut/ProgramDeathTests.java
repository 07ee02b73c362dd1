package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Events;

/**
 * A power cut in JUnit is the program's death, as a real one is: what a workload acknowledges or throws after an armed
 * cut does not count ({@link SimulatedDisk#untilPowerCut}). A journal that logs a failed sync and carries on, and one
 * whose error path throws, both pass every crash point when their syncs before the cut were honest, on both models;
 * the one that carries on fails {@link FailingSyncs}, where the power stays on.
 */
@Tag("junit-api") // runs on JUnit 6 too: see RerunOnJunit6Tests
class ProgramDeathTests {

    private static final int RECORDS = 6;

    private static List<String> afterCut(Events events) {
        return events.reportingEntryPublished().stream()
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("flushcheck.powercut.afterCut"))
                .filter(v -> v != null).collect(Collectors.toList());
    }

    /** The workload of the fixtures, in the form that ends it with the power. */
    static void journal(SimulatedDisk disk, boolean carriesOn, boolean asserts) throws Exception {
        AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
            try {
                SyncedJournal journal = SyncedJournal.create(disk.path().resolve("journal"), carriesOn, asserts);
                for (int i = 1; i <= RECORDS; i++) {
                    journal.append("record " + i);
                    acknowledged.add("record " + i);
                }
            } catch (IOException failedSync) {
                // the journal reported it: nothing more is acknowledged
            }
        });
        acks.assertDurable(SyncedJournal.read(disk.cutPower().resolve("journal")));
    }

    private static void requireBlock() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static void requireFile() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    @Test
    void aJournalThatCarriesOnAfterTheCutPassesEveryCrashPointOnTheBlockModel() {
        requireBlock();
        Events events = run(Fixtures.BlockCarriesOn.class);
        assertThat(events.failed().count()).as("%s", events.failed().stream().map(FixtureRuns::message).toList())
                .isZero();
        assertThat(events.succeeded().count()).isEqualTo(12);
        assertThat(afterCut(events)).as("the invocations whose workload acknowledged after the power went")
                .anySatisfy(v -> assertThat(v).matches("after the power went, the workload acknowledged \\d+"
                        + " records?, not counted\\. .*@FailingSyncs tests that"));
    }

    @Test
    void aJournalThatCarriesOnAfterTheCutPassesEveryCrashPointOnTheFileModel() {
        requireFile();
        Events events = run(Fixtures.FileCarriesOn.class);
        assertThat(events.failed().count()).as("%s", events.failed().stream().map(FixtureRuns::message).toList())
                .isZero();
        assertThat(events.succeeded().count()).isGreaterThanOrEqualTo(6);
        assertThat(afterCut(events)).isNotEmpty();
    }

    @Test
    void aJournalWhoseErrorPathThrowsPassesEveryCrashPointOnBothModels() {
        requireBlock();
        for (Class<?> fixture : List.of(Fixtures.BlockAsserts.class, Fixtures.FileAsserts.class)) {
            Events events = run(fixture);
            assertThat(events.failed().count()).as("%s: %s", fixture.getSimpleName(),
                    events.failed().stream().map(FixtureRuns::message).toList()).isZero();
            assertThat(afterCut(events)).as(fixture.getSimpleName()).anySatisfy(v -> assertThat(v)
                    .contains("threw java.lang.AssertionError: journal: the sync of record ")
                    .contains("which ended it as the cut would have"));
        }
    }

    @Test
    void withoutUntilPowerCutAThrowAfterTheCutFailsSayingWhyAndWhatToUse() {
        requireFile();
        Events events = run(Fixtures.AssertsInTheTestItself.class);
        assertThat(events.failed().count()).isPositive();
        assertThat(events.failed().stream().map(FixtureRuns::message)).allSatisfy(m -> assertThat(m)
                .contains("the workload threw this after the power went (power cut ")
                .contains("run the workload in disk.untilPowerCut(acknowledged -> ...)"));
    }

    @Test
    void theJournalThatCarriesOnStillFailsFailingSyncsWithTheRecordsItAcknowledgedAfterTheFailure() {
        requireFile();
        Events events = run(Fixtures.FailingCarriesOn.class);
        assertThat(events.failed().count()).isPositive();
        assertThat(events.failed().stream().map(FixtureRuns::message)).hasSize(RECORDS).allSatisfy(m -> assertThat(m)
                .contains("acknowledged records did not survive the cut")
                .contains("acknowledged after the drive had failed a sync"));
    }

    static class Fixtures {

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 64)
        static class BlockCarriesOn {
            @RepeatedPowerCut(times = 12, seed = 5)
            void nothingAcknowledgedBeforeTheCutIsLost(SimulatedDisk disk) throws Exception {
                journal(disk, true, false);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class FileCarriesOn {
            @RepeatedPowerCut(times = 12, seed = 5)
            void nothingAcknowledgedBeforeTheCutIsLost(SimulatedDisk disk) throws Exception {
                journal(disk, true, false);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 64)
        static class BlockAsserts {
            @RepeatedPowerCut(times = 8, seed = 5)
            void nothingAcknowledgedBeforeTheCutIsLost(SimulatedDisk disk) throws Exception {
                journal(disk, false, true);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class FileAsserts {
            @RepeatedPowerCut(times = 8, seed = 5)
            void nothingAcknowledgedBeforeTheCutIsLost(SimulatedDisk disk) throws Exception {
                journal(disk, false, true);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class AssertsInTheTestItself {
            @RepeatedPowerCut(times = 4, sweep = RepeatedPowerCut.Sweep.RANDOM, seed = 5)
            void theWorkloadRunsInTheTestMethod(SimulatedDisk disk) throws IOException {
                SyncedJournal journal = SyncedJournal.create(disk.path().resolve("journal"), false, true);
                for (int i = 1; i <= RECORDS; i++) {
                    journal.append("record " + i);
                }
                disk.cutPower();
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class FailingCarriesOn {
            @FailingSyncs(sweep = true)
            void nothingAcknowledgedIsLost(SimulatedDisk disk) throws Exception {
                journal(disk, true, false);
            }
        }
    }
}

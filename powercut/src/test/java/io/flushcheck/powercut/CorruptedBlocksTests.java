package io.flushcheck.powercut;

import static io.flushcheck.powercut.CorruptedBlocksRuns.damage;
import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** @CorruptedBlocks as a user's test meets it: run through the test kit, on the file model's real FUSE mounts. */
@Tag("junit-api")
class CorruptedBlocksTests {

    @BeforeEach
    void needs() {
        CorruptedBlocksRuns.requireFuse();
    }

    @Test
    void aJournalWithChecksumsDetectsEveryDamagedBlockAndNamesWhatWasDone() {
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.Checked.class);
        events.assertStatistics(s -> s.started(5).succeeded(5));
        List<String> names = events.started().stream().map(FixtureRuns::name).toList();
        assertThat(names.get(0)).isEqualTo("[1] nothing damaged, listing the blocks");
        assertThat(names.subList(1, names.size())).allMatch(n -> n.matches(
                "\\[\\d] (bit rot in journal bytes \\d+\\+4096, seed \\d+|zeroed in journal bytes \\d+\\+4096)"), "names");
        assertThat(names).as("both blocks of the journal and both kinds").anyMatch(n -> n.contains("bytes 4096+"))
                .anyMatch(n -> n.contains("bytes 0+")).anyMatch(n -> n.contains("zeroed")).anyMatch(n -> n.contains("bit rot"));
        Map<String, String> done = damage(events);
        assertThat(done.get(names.get(0))).isEqualTo("nothing damaged (4 blocks and kinds to damage)");
        for (String n : names.subList(1, names.size())) {
            assertThat(done.get(n)).as(n).matches("(bit [0-7] of byte \\d+ of journal flipped|bytes \\d+\\+\\d+ of journal"
                    + " zeroed) \\(.*\\)");
        }
        assertThat(Fixtures.OUTCOMES.get(0)).isEqualTo(ReadBack.Outcome.INTACT);
        assertThat(Fixtures.OUTCOMES.subList(1, Fixtures.OUTCOMES.size())).as("every damaged block detected")
                .containsOnly(ReadBack.Outcome.DETECTED);
    }

    @Test
    void aJournalWithoutChecksumsIsCaughtReturningWrongRecordsWithoutAnError() {
        Events events = run(Fixtures.Unchecked.class);
        assertThat(events.succeeded().stream().map(FixtureRuns::name)).contains("[1] nothing damaged, listing the blocks");
        List<Event> failed = events.failed().list();
        assertThat(failed).as("every damaged invocation").hasSize(4);
        String m = message(failed.get(0));
        assertThat(m).matches("(?s)(bit [0-7] of byte \\d+ of journal flipped|bytes \\d+\\+\\d+ of journal zeroed): the reader"
                        + " returned \\d+ records, 300 were acknowledged; \\d+ returned never acknowledged \\(.*")
                .contains("; no error")
                .contains("\nthe damaged block: ").contains("to repeat only this invocation: @CorruptedBlocks(block = \"");
    }

    @Test
    void onBtrfsEveryDamagedBlockOfTheJournalWithoutChecksumsReadsAsAnError() {
        Mounts.requireMountTools();
        Requirements.require(Filesystems.find("mkfs.btrfs") != null, "mkfs.btrfs (apt-get install btrfs-progs)");
        Fixtures.OUTCOMES.clear();
        Events events = run(Fixtures.UncheckedOnBtrfs.class);
        events.assertStatistics(s -> s.started(5).succeeded(5));
        Map<String, String> done = damage(events);
        assertThat(done.values()).as("placed on the drive").filteredOn(v -> !v.startsWith("nothing"))
                .allMatch(v -> v.matches("(bit [0-7] of byte \\d+ of journal flipped \\(drive byte \\d+\\)|bytes \\d+\\+\\d+ of"
                        + " journal zeroed \\(drive bytes \\d+\\+\\d+\\)) \\(.*\\)"));
        assertThat(Fixtures.OUTCOMES.subList(1, Fixtures.OUTCOMES.size())).as("btrfs's data checksums fail every read")
                .containsOnly(ReadBack.Outcome.DETECTED);
    }

    @Test
    void aPinnedBlockRunsOnlyThatInvocationAndTheSeedFlipsTheSameBit() {
        String block = "bit rot in journal bytes 4096+4096, seed 77";
        Map<String, String> first = damage(run(Fixtures.Checked.class, Map.of(CorruptedBlocks.BLOCK_PARAMETER, block)));
        Events again = run(Fixtures.Checked.class, Map.of(CorruptedBlocks.BLOCK_PARAMETER, block));
        again.assertStatistics(s -> s.started(1).succeeded(1));
        assertThat(damage(again)).isEqualTo(first).containsOnlyKeys("[1] " + block);
        assertThat(first.get("[1] " + block)).matches("bit [0-7] of byte (409[6-9]|4[1-9]\\d\\d|[5-7]\\d\\d\\d|8[01]\\d\\d"
                + "|818\\d|819[01]) of journal flipped \\(" + java.util.regex.Pattern.quote(block) + "\\)");
    }

    @Test
    void aBlockTheSurvivorDoesNotHaveAbortsItsInvocationSayingSo() {
        Events events = run(Fixtures.Checked.class, Map.of(CorruptedBlocks.BLOCK_PARAMETER, "zeroed in journal bytes 65536+4096"));
        events.assertStatistics(s -> s.started(1).aborted(1));
        assertThat(events.aborted().list().get(0).getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .orElseThrow().getThrowable().orElseThrow().getMessage())
                .contains("journal holds").contains("none at 65536");
    }

    @Test
    void aMalformedBlockOrAnEmptySweepIsRefusedWithTheFormItTakes() {
        String events = EngineRuns.containers(Fixtures.Checked.class, Map.of(CorruptedBlocks.BLOCK_PARAMETER, "journal 3"));
        assertThat(events).contains("not a damaged block: \"journal 3\"").contains("bit rot in FILE bytes OFFSET+LENGTH");
        assertThat(EngineRuns.containers(Fixtures.NoKinds.class, Map.of())).contains("kinds is empty");
        assertThat(EngineRuns.containers(Fixtures.NoTimes.class, Map.of())).contains("times = 0: it must be at least 1");
    }

    @Test
    void aTestThatNeverCutsIsToldTo() {
        Events events = run(Fixtures.NeverCuts.class);
        events.assertStatistics(s -> s.started(1).failed(1));
        assertThat(message(events.failed().list().get(0))).contains("the test made no power cut").contains("disk.cutPower()");
    }

    /** What failed a container (the template's configuration errors), as one text. */
    static final class EngineRuns {
        static String containers(Class<?> fixture, Map<String, String> parameters) {
            Events all = org.junit.platform.testkit.engine.EngineTestKit.engine("junit-jupiter")
                    .configurationParameter("junit.jupiter.conditions.deactivate", "*").configurationParameters(parameters)
                    .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(fixture)).execute()
                    .containerEvents();
            List<String> messages = new ArrayList<>();
            for (Event e : all.failed().list()) {
                messages.add(message(e));
            }
            return String.join("\n", messages);
        }
    }

    static class Fixtures {
        static final List<ReadBack.Outcome> OUTCOMES = new CopyOnWriteArrayList<>();

        static void journal(SimulatedDisk disk, boolean checked) throws Exception {
            CorruptedBlocksRuns.journal(disk, checked, OUTCOMES);
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class Checked {
            @CorruptedBlocks(times = 9, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                journal(disk, true);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class Unchecked {
            @CorruptedBlocks(times = 9, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                journal(disk, false);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, fs = "btrfs", sizeMiB = 128)
        static class UncheckedOnBtrfs {
            @CorruptedBlocks(times = 9, seed = 3)
            void noRecordIsSilentlyWrong(SimulatedDisk disk) throws Exception {
                journal(disk, false);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class NoKinds {
            @CorruptedBlocks(kinds = {})
            void sweep(SimulatedDisk disk) throws IOException {
                disk.cutPower();
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class NoTimes {
            @CorruptedBlocks(times = 0)
            void sweep(SimulatedDisk disk) throws IOException {
                disk.cutPower();
            }
        }

        @SimulatedPowerLoss(model = DiskModel.FILE)
        static class NeverCuts {
            @CorruptedBlocks(times = 3)
            void forgetsToCut(SimulatedDisk disk) throws IOException {
                Files.writeString(disk.path().resolve("x"), "x");
            }
        }
    }
}

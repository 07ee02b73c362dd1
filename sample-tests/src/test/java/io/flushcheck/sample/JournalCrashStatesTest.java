package io.flushcheck.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guide's example of every crash state of one run: the journal's workload runs once while the drive records
 * it, and each state it could have left is mounted and checked. The block model only: it needs root.
 */
// tag::crash-states[]
@SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 64, mkfsOptions = {"-b", "4096"})
class JournalCrashStatesTest {
    @Test
    void everyCrashStateKeepsWhatWasAcknowledged(SimulatedDisk disk) throws Exception {
        CrashStates states = disk.recordCrashStates(acknowledged -> {      // runs once, the power on
            try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
                for (int i = 0; i < 10; i++) {
                    journal.append(("record " + i).getBytes(UTF_8));           // returns once synced
                    acknowledged.add("record " + i);
                }
            }
        });
        CrashStateReport report = states.check(1000, (survivor, mustSurvive) -> {
            try (Journal journal = Journal.open(survivor.resolve("journal"))) {
                List<String> kept = journal.readAll().stream().map(b -> new String(b, UTF_8)).toList();
                assertTrue(kept.containsAll(mustSurvive), () -> kept + " lacks some of " + mustSurvive);
            }
        });
        report.assertPassed();                    // names the smallest failing state and the write it lost
    }
}
// end::crash-states[]

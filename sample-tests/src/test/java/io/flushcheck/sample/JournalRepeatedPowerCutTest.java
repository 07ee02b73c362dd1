package io.flushcheck.sample;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.RepeatedPowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.util.List;

/** The guide's sweep: the journal's test run once per crash point, each on a fresh disk. */
// tag::repeated-power-cut[]
@SimulatedPowerLoss(sizeMiB = 64)                  // optional: configures the disks of the sweep
class JournalRepeatedPowerCutTest {
    @RepeatedPowerCut(times = 20)                  // sweep = BOTH, seed = 0, point = "" by default
    void everyAcknowledgedRecordSurvives(SimulatedDisk disk) throws Exception {
        AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {   // ends the workload when the power goes
            try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
                for (int i = 0; i < 10; i++) {
                    journal.append(("record " + i).getBytes(UTF_8));      // returns once synced
                    acknowledged.add("record " + i);
                }
            }
        });
        try (Journal journal = Journal.open(disk.cutPower().resolve("journal"))) {
            List<String> survived = journal.readAll().stream().map(b -> new String(b, UTF_8)).toList();
            acks.assertDurable(survived);                 // a record in flight may survive too
        }
    }
}
// end::repeated-power-cut[]

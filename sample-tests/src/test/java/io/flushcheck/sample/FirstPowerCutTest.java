package io.flushcheck.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The guide's power-cut example: the power goes under the journal, and the test reads what survived. */
// tag::power-cut[]
@SimulatedPowerLoss(sizeMiB = 64)   // model = AUTO, fs = "ext4", rules = JOURNALED, directIo = false
class FirstPowerCutTest {
    @Test
    void anAcknowledgedRecordSurvives(SimulatedDisk disk) throws Exception {
        try (Journal journal = Journal.open(disk.path().resolve("journal"))) {   // a fresh, empty disk
            journal.append("one".getBytes(UTF_8));                                // returns once synced
        }
        Path survivor = disk.cutPower();          // the power is gone; what survived is mounted here
        try (Journal journal = Journal.open(survivor.resolve("journal"))) {
            assertEquals(1, journal.readAll().size());
        }
    }
}
// end::power-cut[]

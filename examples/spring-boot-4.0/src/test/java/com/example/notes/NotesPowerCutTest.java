package com.example.notes;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.RepeatedPowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;

/** The store under power cuts: at each crash point, every note whose add returned is still there. */
// tag::power-cut[]
@SimulatedPowerLoss(sizeMiB = 64)
class NotesPowerCutTest {

    @RepeatedPowerCut(times = 6)
    void everyAcknowledgedNoteSurvives(SimulatedDisk disk) throws Exception {
        AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
            try (NoteStore store = NoteStore.open(disk.path().resolve("notes.db"))) {
                for (int i = 0; i < 10; i++) {
                    store.add("note " + i);                   // returns once committed
                    acknowledged.add("note " + i);
                }
            }
        });
        try (NoteStore store = NoteStore.open(disk.cutPower().resolve("notes.db"))) {
            acks.assertDurable(store.all());
        }
    }
}
// end::power-cut[]

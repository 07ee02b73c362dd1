package io.flushcheck.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.CorruptedBlocks;
import io.flushcheck.powercut.ReadBack;
import io.flushcheck.powercut.SimulatedDisk;
import java.nio.file.Path;

/** The guide's sweep of damaged blocks: the journal's test run once per block of what it left, each damaged in turn. */
class JournalCorruptedBlocksTest {

    // tag::corrupted-blocks[]
    @CorruptedBlocks(times = 21)                   // kinds BIT_ROT and ZEROED, blocks of 4096 bytes
    void noRecordComesBackWrong(SimulatedDisk disk) throws Exception {
        AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
            try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
                for (int i = 0; i < 600; i++) {
                    journal.append(("record " + i).getBytes(UTF_8));      // returns once synced
                    acknowledged.add("record " + i);
                }
            }
        });
        Path survivor = disk.cutPower();                  // one block of the survivor is damaged here
        ReadBack read = acks.readBack(() -> {
            try (Journal journal = Journal.open(survivor.resolve("journal"))) {
                return journal.readAll().stream().map(b -> new String(b, UTF_8)).toList();
            }
        });
        // One copy cannot tell a damaged record from a torn append: it loses the rest silently, never returns it wrong.
        assertNotEquals(ReadBack.Outcome.SILENT_CORRUPTION, read.outcome(), read.explanation());
    }
    // end::corrupted-blocks[]
}

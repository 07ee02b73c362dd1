package io.flushcheck.sample;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.flushcheck.powercut.AcknowledgedRecords;
import io.flushcheck.powercut.Errno;
import io.flushcheck.powercut.FailingSyncs;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.util.List;

/** The guide's failing-sync sweep: the journal stops at a failed sync, so nothing it acknowledged is lost. */
class JournalFailingSyncsTest {

    // tag::failing-syncs[]
    @FailingSyncs(sweep = true, errno = Errno.ENOSPC)
    void nothingAcknowledgedIsLost(SimulatedDisk disk) throws Exception {
        AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
            try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
                for (int i = 1; i <= 6; i++) {
                    journal.append(("record " + i).getBytes(UTF_8));   // returns once synced, or throws
                    acknowledged.add("record " + i);
                }
            } catch (IOException failedSync) {
                // a journal that stops at a failed sync acknowledges nothing more
            }
        });
        try (Journal journal = Journal.open(disk.cutPower().resolve("journal"))) {
            List<String> survived = journal.readAll().stream().map(b -> new String(b, UTF_8)).toList();
            acks.assertDurable(survived);
        }
    }
    // end::failing-syncs[]
}

package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flushcheck.jupiter.MeasureSyncCost;
import io.flushcheck.jupiter.RequiresRealFlush;
import io.flushcheck.jupiter.SyncCostMeasurement;
import io.flushcheck.probe.SyncCost;
import org.junit.jupiter.api.Test;

/**
 * What the journal's durability costs on this machine. The figures land in the test report
 * (flushcheck.java-force.p50Micros, ...) and in target/flushcheck/*.json and *.txt.
 */
@RequiresRealFlush
class JournalCostTest {

    /** The journal appends and calls force(false): append-fdatasync is its price, java-force what Java gets. */
    @Test
    @MeasureSyncCost(modes = {"append-fdatasync", "overwrite-fdatasync", "java-force"}, rounds = 200)
    void appendCostsAtLeastOneFlushPerRecord(SyncCostMeasurement m) {
        SyncCost append = m.cost("append-fdatasync");
        assertTrue(append.flushesPerSync() >= 0.9, () -> "each append should flush the device: " + append.flushesPerSync());
        // Seed 002: preallocated overwrites skip the journal commit, so they write less per sync.
        SyncCost overwrite = m.cost("overwrite-fdatasync");
        assertTrue(overwrite.kibWritten() <= append.kibWritten(),
                () -> "overwrite wrote " + overwrite.kibWritten() + " KiB, append " + append.kibWritten() + " KiB");
    }

    /** A latency gate in the style of etcd's "p99 of fdatasync under 10 ms", made generous for shared CI machines. */
    @Test
    @MeasureSyncCost(modes = "overwrite-fdatasync", rounds = 200, maxP99Micros = 250_000)
    void commitLatencyStaysUnderTheGate(SyncCostMeasurement m) {
        assertTrue(m.cost("overwrite-fdatasync").p50Micros() > 0);
    }
}

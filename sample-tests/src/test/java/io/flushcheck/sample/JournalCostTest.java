package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flushcheck.jupiter.MeasureSyncCost;
import io.flushcheck.jupiter.RequiresRealFlush;
import io.flushcheck.jupiter.SyncCostMeasurement;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import org.junit.jupiter.api.Test;

/**
 * What the journal's durability costs on this machine. The figures land in the test report
 * (flushcheck.java-force.p50Micros, ...) and in target/flushcheck/*.json and *.txt.
 */
@RequiresRealFlush
class JournalCostTest {

    /** The journal appends and calls force(false): append-fdatasync is its price, java-force what Java gets. */
    // tag::measure-sync-cost[]
    @Test
    @MeasureSyncCost(modes = {SyncMode.APPEND_FDATASYNC, SyncMode.OVERWRITE_FDATASYNC, SyncMode.JAVA_FORCE}, rounds = 200)
    void appendCostsAtLeastOneFlushPerRecord(SyncCostMeasurement m) {
        SyncCost append = m.cost(SyncMode.APPEND_FDATASYNC);
        assertTrue(append.flushesPerSync() >= 0.9, () -> "each append should flush the device: " + append.flushesPerSync());
        // An append changes the file's size, so fdatasync(2) must also commit that metadata (on ext4, a journal
        // commit: about 8 KiB written per 4 KiB round, measured); a preallocated overwrite writes its block.
        SyncCost overwrite = m.cost(SyncMode.OVERWRITE_FDATASYNC);
        assertTrue(overwrite.kibWritten() <= append.kibWritten(),
                () -> "overwrite wrote " + overwrite.kibWritten() + " KiB, append " + append.kibWritten() + " KiB");
    }
    // end::measure-sync-cost[]

    /**
     * A latency gate in the style of etcd's "p99 of wal fsync under 10 ms", made generous for shared CI machines:
     * 200 rounds put 10 above the p95, enough that no single stall decides it (a p99 needs 1000).
     */
    // tag::sync-cost-gate[]
    @Test
    @MeasureSyncCost(modes = SyncMode.OVERWRITE_FDATASYNC, rounds = 200, maxMicros = 250_000, gatePercentile = 95)
    void commitLatencyStaysUnderTheGate(SyncCostMeasurement m) {
        assertTrue(m.cost(SyncMode.OVERWRITE_FDATASYNC).p50Micros() > 0);
    }
    // end::sync-cost-gate[]
}

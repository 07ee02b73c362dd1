package io.flushcheck.powercut;

import java.util.ArrayList;
import java.util.List;

/**
 * What was noted on a {@link SimulatedDisk} for the reports of a run: the records its programs acknowledged
 * ({@link AcknowledgedRecords#on}) and what was done to its data at rest ({@link SimulatedDisk#corrupt}), in order.
 * Thread-safe: a workload's threads note as they go.
 */
final class DiskNotes {

    private final List<AcknowledgedRecords> records = new ArrayList<>();
    private final List<String> damage = new ArrayList<>();

    void noteRecords(AcknowledgedRecords r) {
        synchronized (records) {
            records.add(r);
        }
    }

    /** Every record acknowledged on the disk after the power went, not counted; and what workloads threw then. */
    List<AcknowledgedRecords> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** Notes what was done to the disk's data at rest ({@code bit 3 of byte 8200 of db/wal flipped}). */
    void noteDamage(String what) {
        synchronized (damage) {
            damage.add(what);
        }
    }

    /** What has been done to the disk's data at rest, in words, in order: empty when nothing. */
    List<String> damage() {
        synchronized (damage) {
            return List.copyOf(damage);
        }
    }
}

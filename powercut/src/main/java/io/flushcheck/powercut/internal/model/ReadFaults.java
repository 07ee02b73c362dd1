package io.flushcheck.powercut.internal.model;

import org.apiguardian.api.API;

/**
 * Reads that fail with the power on ({@link PowerLossModel#failReads}), for either model: a read that touches a
 * planned range of a unit (the block model's drive, unit 0; a file of the file model, by its node) fails with
 * the range's errno; a range planned once is gone after its first failure, and a write that covers part of a
 * range clears that part ({@link #rewritten}), as a rewrite remaps a bad sector. Byte-exact: a caller that keeps bad
 * sectors by block rounds the ranges it plans and clears to its blocks. Not thread-safe: its model calls it under
 * its own lock.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ReadFaults extends RangeFaults {

    /** The errno a read of {@code length} bytes at {@code offset} of {@code unit} fails with, or 0; counts it. */
    @Override
    public int failsNow(long unit, long offset, long length) {
        return length <= 0 ? 0 : super.failsNow(unit, offset, length); // an empty read touches no range
    }

    /** Clears the ranges' parts in {@code from} (inclusive) to {@code to} (exclusive) of {@code unit}: new bytes are there. */
    public void rewritten(long unit, long from, long to) {
        clear(unit, from, to);
    }
}

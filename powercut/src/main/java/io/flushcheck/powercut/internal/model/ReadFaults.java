package io.flushcheck.powercut.internal.model;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
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
public final class ReadFaults {

    private record Range(long unit, long from, long to, int errno, boolean persistent) {
    }

    private final List<Range> ranges = new ArrayList<>();
    private long failed;

    public void fail(long unit, long from, long length, boolean persistent, int errno) {
        if (from < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + from + "+" + length);
        }
        if (errno <= 0) {
            throw new IllegalArgumentException("an errno is positive, not " + errno);
        }
        long to = from + length < 0 ? Long.MAX_VALUE : from + length; // to the end of the file
        ranges.add(new Range(unit, from, to, errno, persistent));
    }

    /** The errno a read of {@code length} bytes at {@code offset} of {@code unit} fails with, or 0; counts it. */
    public int failsNow(long unit, long offset, long length) {
        if (ranges.isEmpty() || length <= 0) {
            return 0;
        }
        for (Iterator<Range> it = ranges.iterator(); it.hasNext(); ) {
            Range r = it.next();
            if (r.unit == unit && offset < r.to && offset + length > r.from) {
                if (!r.persistent) {
                    it.remove();
                }
                failed++;
                return r.errno;
            }
        }
        return 0;
    }

    /** Clears the ranges' parts in {@code from} (inclusive) to {@code to} (exclusive) of {@code unit}: new bytes are there. */
    public void rewritten(long unit, long from, long to) {
        if (ranges.isEmpty() || to <= from) {
            return;
        }
        List<Range> kept = new ArrayList<>();
        for (Range r : ranges) {
            if (r.unit != unit || to <= r.from || from >= r.to) {
                kept.add(r);
                continue;
            }
            if (r.from < from) {
                kept.add(new Range(unit, r.from, from, r.errno, r.persistent));
            }
            if (to < r.to) {
                kept.add(new Range(unit, to, r.to, r.errno, r.persistent));
            }
        }
        ranges.clear();
        ranges.addAll(kept);
    }

    public long failed() {
        return failed;
    }
}

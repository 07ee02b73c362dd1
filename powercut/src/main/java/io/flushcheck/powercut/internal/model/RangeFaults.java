package io.flushcheck.powercut.internal.model;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Planned faults on byte ranges of units (the block model's drive, unit 0; a file of the file model, by its node),
 * what {@link ReadFaults} and {@link WriteFaults} share: an access that touches a planned range fails with the
 * range's errno; a range planned once is gone after its first failure. Not thread-safe: its model calls it under its
 * own lock.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public abstract sealed class RangeFaults permits ReadFaults, WriteFaults {

    private record Range(long unit, long from, long to, int errno, boolean persistent) {
    }

    private final List<Range> ranges = new ArrayList<>();
    private long failed;

    RangeFaults() {
    }

    public void fail(long unit, long from, long length, boolean persistent, int errno) {
        if (from < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + from + "+" + length);
        }
        if (errno <= 0) {
            throw new IllegalArgumentException("an errno is positive, not " + errno);
        }
        long to = from + length < 0 ? Long.MAX_VALUE : from + length; // to the end of the unit
        ranges.add(new Range(unit, from, to, errno, persistent));
    }

    /** The errno an access of {@code length} bytes at {@code offset} of {@code unit} fails with, or 0; counts it. */
    public int failsNow(long unit, long offset, long length) {
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

    /** Clears the ranges' parts in {@code from} (inclusive) to {@code to} (exclusive) of {@code unit}. */
    void clear(long unit, long from, long to) {
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

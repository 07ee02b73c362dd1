package io.flushcheck.powercut.internal.model;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes that fail with the power on ({@link PowerLossModel#failWrites}), for either model: a write that
 * touches a planned range of a unit (the block model's drive, unit 0; a file of the file model, by its node)
 * fails with the range's errno and changes nothing; a range planned once is gone after its first failure. Not
 * thread-safe: its model calls it under its own lock.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WriteFaults {

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
        long to = from + length < 0 ? Long.MAX_VALUE : from + length; // "to the end" from past byte 0
        ranges.add(new Range(unit, from, to, errno, persistent));
    }

    /** The errno a write of {@code length} bytes at {@code offset} of {@code unit} fails with, or 0; counts it. */
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

    public long failed() {
        return failed;
    }
}

package io.flushcheck.powercut.internal.model;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * How long a file was as each flush of a drive completed, read just before the flush counted: the file a program
 * appends its acknowledgements to, a line each. A line ending at byte {@code end} that the reading of flush
 * {@code k} already held was written before flush {@code k} completed, and after the reading of the flush before
 * the first one that held it: {@link #flushesWhenWritten} counts it from the flush before that one, never earlier
 * than the flushes completed when it was written. Only the flushes at which the size changed are kept. Not
 * thread-safe: its model calls {@link #note} under its own lock, and hands it on once the watch is over.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FlushSizes {

    private long[] flushes = new long[16];
    private long[] sizes = new long[16];
    /** The largest size noted up to each reading: the first that reaches a line's end is the first reading to hold it. */
    private long[] largest = new long[16];
    private int n;

    /** Notes that the file held {@code size} bytes as flush {@code k} (counted from the drive's creation) completed. */
    public void note(long k, long size) {
        if (k < 1 || size < 0) {
            throw new IllegalArgumentException("flush " + k + " of a file of " + size + " bytes cannot be noted");
        }
        if (n > 0 && k <= flushes[n - 1]) {
            throw new IllegalArgumentException("flush " + k + " noted after flush " + flushes[n - 1]);
        }
        if (n > 0 && sizes[n - 1] == size) {
            return; // the earlier reading answers for this flush too
        }
        if (n == flushes.length) {
            flushes = Arrays.copyOf(flushes, 2 * n);
            sizes = Arrays.copyOf(sizes, 2 * n);
            largest = Arrays.copyOf(largest, 2 * n);
        }
        flushes[n] = k;
        sizes[n] = size;
        largest[n] = n == 0 ? size : Math.max(size, largest[n - 1]);
        n++;
    }

    /**
     * The flushes completed when the line ending at byte {@code end} was written, at most: the flush before the first
     * whose reading held {@code end} bytes; -1 when none did (the line came after the last flush noted).
     */
    public long flushesWhenWritten(long end) {
        // A program that shortens the file only misleads itself: the first reading that held the end still counts.
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (largest[mid] >= end) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo < n ? flushes[lo] - 1 : -1;
    }

    /** The readings as {@code sizes K SIZE K SIZE...}, a flush and its size each: a drive's reply. */
    public String reply() {
        StringBuilder b = new StringBuilder("sizes");
        for (int i = 0; i < n; i++) {
            b.append(' ').append(flushes[i]).append(' ').append(sizes[i]);
        }
        return b.toString();
    }

    /**
     * The readings {@link #reply()} wrote.
     *
     * @throws IllegalArgumentException when {@code reply} is not such readings
     */
    public static FlushSizes of(String reply) {
        String[] w = reply.split(" ", -1);
        if (!w[0].equals("sizes") || w.length % 2 != 1) {
            throw new IllegalArgumentException("not a flush and a size each: " + reply);
        }
        FlushSizes s = new FlushSizes();
        for (int i = 1; i < w.length; i += 2) {
            try {
                s.note(Long.parseLong(w[i]), Long.parseLong(w[i + 1]));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a flush and a size each: " + reply, e);
            }
        }
        return s;
    }
}

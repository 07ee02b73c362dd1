package io.flushcheck.powercut.internal.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Writes the drive acknowledges and gets wrong with the power on ({@link PowerLossModel#loseWrites},
 * {@link PowerLossModel#misdirectWrites}), for either model: a write that touches a planned range of a unit (the
 * block model's drive, unit 0; a file of the file model, by its node) keeps the range's old contents, its bytes
 * there lost or written at the range's target instead; a range planned once is gone after the first write it meets.
 * The model applies the lie ({@link Lie}); this counts them. Not thread-safe: its model calls it under its own lock.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WriteLies {

    /**
     * Bytes {@code from} (inclusive) to {@code to} (exclusive) of {@code unit}, whose writes are lost ({@code targetUnit}
     * -1) or land on {@code targetUnit} from {@code targetFrom} (byte {@code from} there, the rest after it).
     */
    public record Lie(long unit, long from, long to, boolean persistent, long targetUnit, long targetFrom) {
        /** True when its writes are lost, not misdirected. */
        public boolean lost() {
            return targetUnit < 0;
        }

        /** Where byte {@code at} of the range lands when misdirected. */
        public long targetOf(long at) {
            return targetFrom + (at - from);
        }
    }

    private final List<Lie> lies = new ArrayList<>();
    private long lost;
    private long misdirected;

    /** Writes to {@code length} bytes from {@code from} of {@code unit} are lost; only the first unless {@code persistent}. */
    public void lose(long unit, long from, long length, boolean persistent) {
        lies.add(new Lie(unit, from, end(from, length), persistent, -1, 0));
    }

    /** Writes to {@code length} bytes from {@code from} of {@code unit} land at {@code targetFrom} of {@code targetUnit}. */
    public void misdirect(long unit, long from, long length, boolean persistent, long targetUnit, long targetFrom) {
        if (targetUnit < 0 || targetFrom < 0 || targetFrom + length < 0) {
            throw new IllegalArgumentException("a misdirected write lands on a unit at byte 0 or later, not " + targetUnit
                    + " byte " + targetFrom + " for " + length + " bytes");
        }
        lies.add(new Lie(unit, from, end(from, length), persistent, targetUnit, targetFrom));
    }

    private static long end(long from, long length) {
        if (from < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + from + "+" + length);
        }
        return from + length < 0 ? Long.MAX_VALUE : from + length; // "to the end" from past byte 0
    }

    /**
     * The lies a write of {@code length} bytes at {@code offset} of {@code unit} meets, by where their ranges start,
     * each range clipped to the write and to the ranges before it (so none overlap); empty when none. Counts the write
     * once as lost and once as misdirected, as it met either.
     */
    public List<Lie> meet(long unit, long offset, long length) {
        if (lies.isEmpty() || length <= 0) {
            return List.of();
        }
        List<Lie> met = new ArrayList<>();
        for (Iterator<Lie> it = lies.iterator(); it.hasNext(); ) {
            Lie l = it.next();
            if (l.unit == unit && offset < l.to && offset + length > l.from) {
                if (!l.persistent) {
                    it.remove();
                }
                met.add(l);
            }
        }
        if (met.isEmpty()) {
            return met;
        }
        met.sort(Comparator.comparingLong(Lie::from));
        List<Lie> clipped = new ArrayList<>();
        long done = offset;
        boolean lostOne = false;
        boolean misdirectedOne = false;
        for (Lie l : met) {
            long from = Math.max(done, l.from);
            long to = Math.min(offset + length, l.to);
            if (from >= to) {
                continue; // covered by the lie before it
            }
            clipped.add(new Lie(l.unit, from, to, l.persistent, l.targetUnit, l.lost() ? 0 : l.targetOf(from)));
            lostOne |= l.lost();
            misdirectedOne |= !l.lost();
            done = to;
        }
        lost += lostOne ? 1 : 0;
        misdirected += misdirectedOne ? 1 : 0;
        return clipped;
    }

    /** Writes lost so far. */
    public long lost() {
        return lost;
    }

    /** Writes misdirected so far. */
    public long misdirected() {
        return misdirected;
    }
}

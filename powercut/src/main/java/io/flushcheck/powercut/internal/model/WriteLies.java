package io.flushcheck.powercut.internal.model;

import java.util.ArrayList;
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

    /** The lie a write of {@code length} bytes at {@code offset} of {@code unit} meets, or null; counts it. */
    public Lie meets(long unit, long offset, long length) {
        if (lies.isEmpty() || length <= 0) {
            return null;
        }
        for (Iterator<Lie> it = lies.iterator(); it.hasNext(); ) {
            Lie l = it.next();
            if (l.unit == unit && offset < l.to && offset + length > l.from) {
                if (!l.persistent) {
                    it.remove();
                }
                if (l.lost()) {
                    lost++;
                } else {
                    misdirected++;
                }
                return l;
            }
        }
        return null;
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

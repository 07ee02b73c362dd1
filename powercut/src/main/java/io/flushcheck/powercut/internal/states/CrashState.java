package io.flushcheck.powercut.internal.states;

import java.util.BitSet;
import org.apiguardian.api.API;

/**
 * One state a drive may be left in by a power cut during epoch {@code epoch} (an index into the
 * recording's epochs): every write of the epochs before it survived, and of its own writes
 * <ul>
 *   <li>{@link Kind#PREFIX}: the first {@code write} (a drive that writes in order);</li>
 *   <li>{@link Kind#DROP}: all but write {@code write} (the drive wrote later ones first);</li>
 *   <li>{@link Kind#TORN}: the first {@code write}, and of write {@code write} its first {@code keptBytes}
 *       bytes, ending in the middle of a sector (a drive whose atomic unit is under 4 KiB);</li>
 *   <li>{@link Kind#DRAWN}: those in {@code drawn}, a subset drawn from a seed ({@code write} is the draw's
 *       number, from 1), each write kept or lost on its own, as a drive that reorders freely may leave them.</li>
 * </ul>
 * {@code lost} counts the epoch's writes that did not survive whole: the smaller, the closer the state is
 * to what the workload wrote.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record CrashState(int epoch, Kind kind, int write, long keptBytes, int lost, BitSet drawn) {

    /** How the state chooses the epoch's writes. */
    public enum Kind { PREFIX, DROP, TORN, DRAWN }

    public CrashState {
        if ((kind == Kind.DRAWN) != (drawn != null)) {
            throw new IllegalArgumentException("a drawn state, and only one, names the writes it kept");
        }
        drawn = drawn == null ? null : (BitSet) drawn.clone();
    }

    /** A state of a kind other than {@link Kind#DRAWN}. */
    public CrashState(int epoch, Kind kind, int write, long keptBytes, int lost) {
        this(epoch, kind, write, keptBytes, lost, null);
    }

    /** Whether write {@code i} of the epoch survived whole. */
    public boolean keeps(int i) {
        return switch (kind) {
            case PREFIX, TORN -> i < write;
            case DROP -> i != write;
            case DRAWN -> drawn.get(i);
        };
    }

    @Override
    public BitSet drawn() {
        return drawn == null ? null : (BitSet) drawn.clone();
    }
}

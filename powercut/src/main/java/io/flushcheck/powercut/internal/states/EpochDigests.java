package io.flushcheck.powercut.internal.states;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What each crash state of one epoch leaves on the drive beyond the epoch's start, as a 128-bit key: each
 * 512-byte unit the state writes, with the hash of the bytes the last surviving write left there, summed in
 * an order that does not matter. So a key is brought from one state to the next by the units that differ:
 * one pass over the epoch's writes gives every prefix, and a write dropped or torn changes only its own
 * units, where a key made from scratch would cost the whole epoch for each state. Two states with the same
 * key leave the same image (a write that puts back what was there already still counts as a change).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EpochDigests {

    /** A state's image, beyond its epoch's start: equal keys, equal images. */
    public record Key(int epoch, long a, long b) {
    }

    private static final long NONE = 0;

    private final int epoch;
    private final List<RecordedWrite> writes;
    /** The key of the first i writes, for i from 0 to all of them. */
    private final long[] prefixA;
    private final long[] prefixB;
    /** For each unit of each write: the hash the unit held before that write (its last writer before), if any. */
    private final long[][] before;
    private final boolean[][] hadBefore;
    /** For each unit of each write: whether no later write of the epoch writes that unit. */
    private final boolean[][] lastWriter;

    public EpochDigests(int epoch, List<RecordedWrite> writes) {
        this.epoch = epoch;
        this.writes = writes;
        int n = writes.size();
        prefixA = new long[n + 1];
        prefixB = new long[n + 1];
        before = new long[n][];
        hadBefore = new boolean[n][];
        lastWriter = new boolean[n][];
        Map<Long, Long> now = new HashMap<>();
        Map<Long, int[]> lastAt = new HashMap<>(); // unit -> {write, index of the unit in it}
        long a = 0;
        long b = 0;
        for (int i = 0; i < n; i++) {
            prefixA[i] = a;
            prefixB[i] = b;
            RecordedWrite w = writes.get(i);
            long[] hashes = w.unitHashes();
            before[i] = new long[hashes.length];
            hadBefore[i] = new boolean[hashes.length];
            lastWriter[i] = new boolean[hashes.length];
            long first = w.offset() / RecordedWrite.UNIT;
            for (int u = 0; u < hashes.length; u++) {
                long unit = first + u;
                Long old = now.put(unit, hashes[u]);
                if (old != null) {
                    before[i][u] = old;
                    hadBefore[i][u] = true;
                    a -= mixA(unit, old);
                    b -= mixB(unit, old);
                    int[] previous = lastAt.get(unit);
                    lastWriter[previous[0]][previous[1]] = false;
                }
                a += mixA(unit, hashes[u]);
                b += mixB(unit, hashes[u]);
                lastWriter[i][u] = true;
                lastAt.put(unit, new int[] {i, u});
            }
        }
        prefixA[n] = a;
        prefixB[n] = b;
    }

    /** The key of {@code state}, a state of this epoch. */
    public Key of(CrashState state) {
        int i = state.write();
        return switch (state.kind()) {
            case PREFIX -> new Key(epoch, prefixA[i], prefixB[i]);
            case DROP -> dropped(i);
            case TORN -> torn(i, state.keptBytes());
            // Drawn states are few (a budget) and drop any number of writes: made from scratch.
            case DRAWN -> fromScratch(epoch, state, writes);
        };
    }

    /** All writes but {@code i}: only the units {@code i} was the last to write change, back to what was before it. */
    private Key dropped(int i) {
        int n = writes.size();
        long a = prefixA[n];
        long b = prefixB[n];
        RecordedWrite w = writes.get(i);
        long first = w.offset() / RecordedWrite.UNIT;
        for (int u = 0; u < w.unitHashes().length; u++) {
            if (lastWriter[i][u]) {
                long unit = first + u;
                a -= mixA(unit, w.unitHashes()[u]);
                b -= mixB(unit, w.unitHashes()[u]);
                if (hadBefore[i][u]) {
                    a += mixA(unit, before[i][u]);
                    b += mixB(unit, before[i][u]);
                }
            }
        }
        return new Key(epoch, a, b);
    }

    /** The first {@code i} writes and the first {@code kept} bytes of write {@code i}. */
    private Key torn(int i, long kept) {
        long a = prefixA[i];
        long b = prefixB[i];
        RecordedWrite w = writes.get(i);
        long first = w.offset() / RecordedWrite.UNIT;
        for (int u = 0; u < kept / RecordedWrite.UNIT; u++) {
            long unit = first + u;
            if (hadBefore[i][u]) {
                a -= mixA(unit, before[i][u]);
                b -= mixB(unit, before[i][u]);
            }
            a += mixA(unit, w.unitHashes()[u]);
            b += mixB(unit, w.unitHashes()[u]);
        }
        return new Key(epoch, a, b);
    }

    /** The key of {@code state} made from scratch, from the units its writes leave: what {@link #of} must equal. */
    static Key fromScratch(int epoch, CrashState state, List<RecordedWrite> writes) {
        Map<Long, Long> units = new HashMap<>();
        int upTo = state.kind() == CrashState.Kind.DROP || state.kind() == CrashState.Kind.DRAWN ? writes.size()
                : state.write();
        for (int i = 0; i < upTo; i++) {
            if (state.keeps(i)) {
                put(units, writes.get(i), writes.get(i).length());
            }
        }
        if (state.kind() == CrashState.Kind.TORN) {
            put(units, writes.get(state.write()), state.keptBytes());
        }
        long a = NONE;
        long b = NONE;
        for (Map.Entry<Long, Long> e : units.entrySet()) {
            a += mixA(e.getKey(), e.getValue());
            b += mixB(e.getKey(), e.getValue());
        }
        return new Key(epoch, a, b);
    }

    private static void put(Map<Long, Long> units, RecordedWrite w, long bytes) {
        long first = w.offset() / RecordedWrite.UNIT;
        for (int u = 0; u < bytes / RecordedWrite.UNIT; u++) {
            units.put(first + u, w.unitHashes()[u]);
        }
    }

    private static long mixA(long unit, long hash) {
        return splitMix(unit * 0x9E3779B97F4A7C15L ^ hash);
    }

    private static long mixB(long unit, long hash) {
        return splitMix(hash * 0xC2B2AE3D27D4EB4FL + unit + 0x165667B19E3779F9L);
    }

    /** SplitMix64's finalizer: every bit of the input moves about half the bits of the output. */
    private static long splitMix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

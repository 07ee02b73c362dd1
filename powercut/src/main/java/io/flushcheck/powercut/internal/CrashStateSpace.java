package io.flushcheck.powercut.internal;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * The crash states of a recorded workload ({@link CrashState}), enumerated from its epochs without
 * touching a byte of the drive: for each epoch every prefix of its writes, each write dropped with the
 * later ones kept, and, with an atomic unit under 4 KiB, each written sector torn in half. Of states that
 * leave the same bytes in the same places (by the writes' unit hashes) one is kept. The states are ordered
 * by the writes they lose, fewest first, so that a bound keeps those closest to what the workload wrote
 * and the first failure found is a smallest one.
 *
 * <p>An epoch's state with all its writes is the next epoch's state with none, which must keep more (one
 * more flush has completed): it is enumerated there. The last epoch's is the recording's end.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CrashStateSpace {

    /** The states to check ({@code states}, at most the bound), and how many others there were. */
    public record Enumerated(List<CrashState> states, int duplicates, int leftOut) {

        /** The distinct states, checked or left out. */
        public int distinct() {
            return states.size() + leftOut;
        }
    }

    private CrashStateSpace() {
    }

    /**
     * The distinct states of {@code epochs} on a drive that writes {@code atomicUnit} bytes atomically, the
     * first {@code maxStates} of them in order of writes lost.
     */
    public static Enumerated enumerate(List<Epoch> epochs, int atomicUnit, int maxStates) {
        if (maxStates < 0) {
            throw new IllegalArgumentException("a bound is at least 0 states, not " + maxStates);
        }
        if (!SectorStore.validAtomicUnit(atomicUnit)) {
            throw new IllegalArgumentException("a drive writes 512, 1024, 2048 or 4096 bytes atomically, not " + atomicUnit);
        }
        List<CrashState> all = new ArrayList<>();
        for (int e = 0; e < epochs.size(); e++) {
            all.addAll(statesOf(e, epochs.get(e).writes(), e == epochs.size() - 1, atomicUnit));
        }
        all.sort(Comparator.comparingInt(CrashState::lost).thenComparingInt(CrashState::epoch)
                .thenComparing(CrashState::kind).thenComparingInt(CrashState::write)
                .thenComparingLong(CrashState::keptBytes));
        List<CrashState> distinct = new ArrayList<>();
        Set<ByteBuffer> seen = new HashSet<>();
        int duplicates = 0;
        for (CrashState s : all) {
            if (seen.add(image(s, epochs.get(s.epoch()).writes()))) {
                distinct.add(s);
            } else {
                duplicates++;
            }
        }
        int kept = Math.min(maxStates, distinct.size());
        return new Enumerated(List.copyOf(distinct.subList(0, kept)), duplicates, distinct.size() - kept);
    }

    private static List<CrashState> statesOf(int e, List<RecordedWrite> writes, boolean last, int atomicUnit) {
        int n = writes.size();
        List<CrashState> states = new ArrayList<>();
        for (int k = 0; k <= (last ? n : n - 1); k++) {
            states.add(new CrashState(e, CrashState.Kind.PREFIX, k, 0, n - k));
        }
        for (int i = 0; i < n - 1; i++) { // dropping the last one is a prefix
            states.add(new CrashState(e, CrashState.Kind.DROP, i, 0, 1));
        }
        if (atomicUnit < SectorStore.SECTOR) {
            for (int i = 0; i < n; i++) {
                RecordedWrite w = writes.get(i);
                // Half of each sector the write covers: the units before the middle written, those after not.
                for (long s = w.offset() / SectorStore.SECTOR; s * SectorStore.SECTOR < w.end(); s++) {
                    long kept = s * SectorStore.SECTOR + SectorStore.SECTOR / 2 - w.offset();
                    if (kept > 0 && kept < w.length()) {
                        states.add(new CrashState(e, CrashState.Kind.TORN, i, kept, n - i));
                    }
                }
            }
        }
        return states;
    }

    /**
     * What {@code s} leaves on the drive beyond its epoch's start, as a digest with the epoch's index: each 512-byte unit it writes
     * with the hash of the bytes the last surviving write left there. Two states with the same digest leave
     * the same image (a write that puts back what was there already still counts as a change).
     */
    static ByteBuffer image(CrashState s, List<RecordedWrite> writes) {
        TreeMap<Long, Long> units = new TreeMap<>();
        int upTo = s.kind() == CrashState.Kind.DROP ? writes.size() : s.write();
        for (int i = 0; i < upTo; i++) {
            if (s.keeps(i)) {
                put(units, writes.get(i), writes.get(i).length());
            }
        }
        if (s.kind() == CrashState.Kind.TORN) {
            put(units, writes.get(s.write()), s.keptBytes());
        }
        MessageDigest digest = sha256();
        ByteBuffer entry = ByteBuffer.allocate(16);
        digest.update(entry.putInt(s.epoch()).flip()); // each epoch starts from an image of its own
        units.forEach((unit, hash) -> digest.update(entry.clear().putLong(unit).putLong(hash).flip()));
        return ByteBuffer.wrap(digest.digest());
    }

    private static void put(TreeMap<Long, Long> units, RecordedWrite w, long bytes) {
        long first = w.offset() / RecordedWrite.UNIT;
        for (int u = 0; u < bytes / RecordedWrite.UNIT; u++) {
            units.put(first + u, w.unitHashes()[u]);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}

package io.flushcheck.powercut.internal.states;

import io.flushcheck.powercut.internal.drive.SectorStore;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * The crash states of a recorded workload ({@link CrashState}), enumerated from its epochs without
 * touching a byte of the drive: for each epoch every prefix of its writes, each write dropped with the
 * later ones kept, and, with an atomic unit under 4 KiB, each written sector torn in half; then, if asked
 * ({@link Draws}), subsets of an epoch's writes drawn from a seed, each write kept or lost on its own. Of
 * states that leave the same bytes in the same places (by the writes' unit hashes, {@link EpochDigests})
 * one is kept. The enumerated states are ordered by the writes they lose, fewest first, so that a bound
 * keeps those closest to what the workload wrote and the first failure found is a smallest one; the drawn
 * ones follow, in the order drawn.
 *
 * <p>An epoch's state with all its writes is the next epoch's state with none, which must keep more (one
 * more flush has completed): it is enumerated there. The last epoch's is the recording's end.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CrashStateSpace {

    /**
     * States to draw beyond those enumerated: {@code count} distinct ones at most, each from an epoch of at least
     * three writes (an epoch of fewer has no subset the enumeration misses) chosen uniformly, each of its writes
     * kept with probability one half; a draw that repeats a state, or keeps a whole epoch, counts against the
     * tries, of which there are {@value #TRIES} a state asked for.
     */
    public record Draws(int count, long seed) {

        /** No state drawn. */
        public static final Draws NONE = new Draws(0, 0);

        static final int TRIES = 8;

        public Draws {
            if (count < 0) {
                throw new IllegalArgumentException("states to draw are at least 0, not " + count);
            }
        }
    }

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
        return enumerate(epochs, atomicUnit, maxStates, Draws.NONE);
    }

    /** As {@link #enumerate(List, int, int)}, with the states {@code draws} asks for after the enumerated ones. */
    public static Enumerated enumerate(List<Epoch> epochs, int atomicUnit, int maxStates, Draws draws) {
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
        EpochDigests[] digests = new EpochDigests[epochs.size()];
        for (int e = 0; e < epochs.size(); e++) {
            digests[e] = new EpochDigests(e, epochs.get(e).writes());
        }
        List<CrashState> distinct = new ArrayList<>();
        Set<EpochDigests.Key> seen = new HashSet<>();
        int duplicates = 0;
        for (CrashState s : all) {
            if (seen.add(digests[s.epoch()].of(s))) {
                distinct.add(s);
            } else {
                duplicates++;
            }
        }
        distinct.addAll(drawn(epochs, digests, seen, draws));
        int kept = Math.min(maxStates, distinct.size());
        return new Enumerated(List.copyOf(distinct.subList(0, kept)), duplicates, distinct.size() - kept);
    }

    private static List<CrashState> drawn(List<Epoch> epochs, EpochDigests[] digests, Set<EpochDigests.Key> seen,
                                          Draws draws) {
        List<Integer> candidates = new ArrayList<>();
        for (int e = 0; e < epochs.size(); e++) {
            if (epochs.get(e).writes().size() >= 3) {
                candidates.add(e);
            }
        }
        List<CrashState> out = new ArrayList<>();
        if (candidates.isEmpty()) {
            return out;
        }
        SplittableRandom random = new SplittableRandom(draws.seed());
        for (long t = 0; t < (long) draws.count() * Draws.TRIES && out.size() < draws.count(); t++) {
            int e = candidates.get(random.nextInt(candidates.size()));
            int n = epochs.get(e).writes().size();
            BitSet kept = new BitSet(n);
            for (int i = 0; i < n; i++) {
                if (random.nextBoolean()) {
                    kept.set(i);
                }
            }
            boolean last = e == epochs.size() - 1;
            if (kept.cardinality() == n && !last) {
                continue; // the next epoch's start, which must keep more
            }
            CrashState s = new CrashState(e, CrashState.Kind.DRAWN, out.size() + 1, 0, n - kept.cardinality(), kept);
            if (seen.add(digests[e].of(s))) {
                out.add(s);
            }
        }
        return out;
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
}

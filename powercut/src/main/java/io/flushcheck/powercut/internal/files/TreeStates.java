package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apiguardian.api.API;

/**
 * The crash states of a file tree's recording ({@link FileTree#record}): at the end of each epoch (before
 * each sync, and at the end of the recording), the states {@link FileTree#statePicks()} lists, those of one
 * epoch that keep the same names, bytes and permission bits counted once, ordered by the operations they
 * lose, fewest first, so that a bound keeps those closest to what the workload did and the first failure
 * found is a smallest one. An epoch with nothing pending at its end is left out but the last: its one state
 * is the next epoch's durable one, which must keep more.
 *
 * <p>The bound applies as the states are found: each state's order and digest come from what it changes of its
 * epoch's tree ({@link FileTree#stateKeys}), and only those within the bound so far are made whole (what they lost,
 * said), so an enumeration costs what the operations recorded and the states kept cost, whatever the bound leaves
 * out.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeStates {

    /** A state of epoch {@code epoch} (from 0), which started after {@code flushesBefore} completed flushes. */
    public record Candidate(int epoch, long flushesBefore, boolean last, FileTree.State state) {

        /** The operations the state lost. */
        public int lost() {
            return state.lost();
        }
    }

    /**
     * The states to check ({@code states}, at most the bound), how many others there were, the epochs and
     * operations of the recording, and the states made whole on the way ({@code made}: the bound's, an epoch at most).
     */
    public record Enumerated(List<Candidate> states, int duplicates, int leftOut, int epochs, long operations,
                             long made) {
    }

    /** What is done with a state written out: it may change it, which the next state's writing finds. */
    @FunctionalInterface
    public interface Visit {
        void visit(Candidate state, Path survivor) throws IOException;
    }

    /** Hears how far an enumeration is: after each epoch, the epochs done and the distinct states found so far. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (epochs, states) -> { };

        void enumerated(int epochs, long states);
    }

    /** A state found: its place in the order, fewest lost first, then by epoch and as its epoch lists them. */
    private static final class Found {
        final int lost;
        final int epoch;
        final long seq;
        final StatePick pick;
        final StateKeys.Key key;
        Candidate candidate;
        boolean dropped;

        Found(int lost, int epoch, long seq, StatePick pick, StateKeys.Key key) {
            this.lost = lost;
            this.epoch = epoch;
            this.seq = seq;
            this.pick = pick;
            this.key = key;
        }
    }

    private static final Comparator<Found> ORDER = Comparator.<Found>comparingInt(f -> f.lost)
            .thenComparingInt(f -> f.epoch).thenComparingLong(f -> f.seq);

    private TreeStates() {
    }

    /** As {@link #enumerate(RegularFile, Path, int, Progress)}, telling no one how far it is. */
    public static Enumerated enumerate(RegularFile recording, Path scratch, int maxStates) throws IOException {
        return enumerate(recording, scratch, maxStates, Progress.NONE);
    }

    /**
     * The distinct states of {@code recording}, the first {@code maxStates} of them in order of operations lost;
     * the recording is played in a tree kept under {@code scratch}, and {@code progress} hears of each epoch done.
     */
    public static Enumerated enumerate(RegularFile recording, Path scratch, int maxStates, Progress progress)
            throws IOException {
        if (maxStates < 0) {
            throw new IllegalArgumentException("a bound is at least 0 states, not " + maxStates);
        }
        // The best states so far, at most the bound, the last in the order at the head: the one a better one drops.
        PriorityQueue<Found> best = new PriorityQueue<>(ORDER.reversed());
        long[] counts = new long[4]; // distinct, duplicates, made whole, found
        TreeReplay.Replayed replayed = TreeReplay.replay(recording, scratch, false, (tree, epoch, flushesBefore, last) -> {
            List<StatePick> picks = tree.statePicks();
            if (picks.size() == 1 && !last) {
                progress.enumerated(epoch + 1, counts[0]);
                return;
            }
            List<StateKeys.Key> keys = tree.stateKeys(picks);
            DigestSet seen = new DigestSet(picks.size());
            List<Found> taken = new ArrayList<>();
            for (int i = 0; i < picks.size(); i++) {
                StateKeys.Key key = keys.get(i);
                if (!seen.add(key.digest())) {
                    counts[1]++;
                    continue;
                }
                counts[0]++;
                Found f = new Found(key.lost(), epoch, counts[3]++, picks.get(i), key);
                if (best.size() < maxStates) {
                    best.add(f);
                    taken.add(f);
                } else if (maxStates > 0 && ORDER.compare(f, best.peek()) < 0) {
                    best.poll().dropped = true;
                    best.add(f);
                    taken.add(f);
                }
            }
            // Made whole while the tree is at this epoch's end: those a later state of this epoch dropped, never.
            for (Found f : taken) {
                if (!f.dropped) {
                    FileTree.State state = tree.state(f.pick, f.key);
                    f.candidate = new Candidate(epoch, flushesBefore, last, state);
                    counts[2]++;
                }
            }
            progress.enumerated(epoch + 1, counts[0]);
        });
        List<Found> kept = new ArrayList<>(best);
        kept.sort(ORDER);
        List<Candidate> states = new ArrayList<>(kept.size());
        for (Found f : kept) {
            states.add(f.candidate);
        }
        return new Enumerated(List.copyOf(states), (int) counts[1], (int) (counts[0] - states.size()),
                replayed.epochs(), replayed.operations(), counts[2]);
    }

    /**
     * Plays {@code recording} again (in a tree kept under {@code scratch}) and writes each of {@code states}
     * into {@code survivor} at its epoch's end, for {@code visit} to check: one directory, each state written from
     * the one before by what differs, or whole where anything changed it since ({@link StateDirectory}); it is
     * removed at the end, and {@code survivor + ".clock"} beside it, a file its writing reads the clock from.
     */
    public static void visit(RegularFile recording, Path scratch, List<Candidate> states, Path survivor, Visit visit)
            throws IOException {
        visit(recording, scratch, states, survivor, null, visit);
    }

    /**
     * As {@link #visit(RegularFile, Path, List, Path, Visit)}, but each state of at least {@link #SERVED_FROM} names
     * is served on {@code served} (an empty directory; null: none is) from a tree of its own in memory, over a FUSE
     * mount of its own ({@link ServedState}), for {@code visit} to check there: processes of their own only may use
     * it. Writing so many files into a directory costs more than serving them.
     */
    public static void visit(RegularFile recording, Path scratch, List<Candidate> states, Path survivor, Path served,
                             Visit visit) throws IOException {
        visit(recording, scratch, states, survivor, served, SERVED_FROM, visit);
    }

    /**
     * As {@link #visit(RegularFile, Path, List, Path, Path, Visit)}, serving the states of {@code servedFrom} names or
     * more.
     */
    static void visit(RegularFile recording, Path scratch, List<Candidate> states, Path survivor, Path served,
                      int servedFrom, Visit visit) throws IOException {
        List<Candidate> byEpoch = new ArrayList<>(states);
        byEpoch.sort(Comparator.comparingInt(Candidate::epoch));
        try (StateSteps steps = StateSteps.open(recording, scratch);
             StateSteps.Place out = steps.place(survivor, served, servedFrom)) {
            for (Candidate c : byEpoch) {
                steps.write(c, out);
                try (StateSteps.Place.Held held = out.hold()) {
                    visit.visit(c, held.path());
                }
            }
        }
    }

    /** The fewest names a state has for {@link #visit(RegularFile, Path, List, Path, Path, Visit)} to serve it. */
    public static final int SERVED_FROM = 10_000;
}

package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The crash states of a file tree's recording ({@link FileTree#record}): at the end of each epoch (before
 * each sync, and at the end of the recording), the states {@link FileTree#statePicks()} lists, those of one
 * epoch that keep the same names, bytes and permission bits counted once, ordered by the operations they
 * lose, fewest first, so that a bound keeps those closest to what the workload did and the first failure
 * found is a smallest one. An epoch with nothing pending at its end is left out but the last: its one state
 * is the next epoch's durable one, which must keep more.
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
     * The states to check ({@code states}, at most the bound), how many others there were, and the epochs and
     * operations of the recording.
     */
    public record Enumerated(List<Candidate> states, int duplicates, int leftOut, int epochs, long operations) {
    }

    /** What is done with a state written out. */
    @FunctionalInterface
    public interface Visit {
        void visit(Candidate state, Path survivor) throws IOException;
    }

    private TreeStates() {
    }

    /**
     * The distinct states of {@code recording}, the first {@code maxStates} of them in order of operations lost;
     * the recording is played in a tree kept under {@code scratch}.
     */
    public static Enumerated enumerate(RegularFile recording, Path scratch, int maxStates) throws IOException {
        if (maxStates < 0) {
            throw new IllegalArgumentException("a bound is at least 0 states, not " + maxStates);
        }
        List<Candidate> all = new ArrayList<>();
        int[] duplicates = {0};
        TreeReplay.Replayed replayed = TreeReplay.replay(recording, scratch, (tree, epoch, flushesBefore, last) -> {
            List<StatePick> picks = tree.statePicks();
            if (picks.size() == 1 && !last) {
                return;
            }
            Set<String> seen = new HashSet<>();
            for (StatePick pick : picks) {
                FileTree.State state = tree.state(pick);
                if (seen.add(state.digest())) {
                    all.add(new Candidate(epoch, flushesBefore, last, state));
                } else {
                    duplicates[0]++;
                }
            }
        });
        // Stable: within a number lost and an epoch, in the order the tree lists them.
        all.sort(Comparator.comparingInt(Candidate::lost).thenComparingInt(Candidate::epoch));
        int kept = Math.min(maxStates, all.size());
        return new Enumerated(List.copyOf(all.subList(0, kept)), duplicates[0], all.size() - kept, replayed.epochs(),
                replayed.operations());
    }

    /**
     * Plays {@code recording} again (in a tree kept under {@code scratch}) and writes each of {@code states}
     * into {@code survivor}, a directory made for it, at its epoch's end, for {@code visit} to check; then
     * {@code visit} is to remove it, for the next state's.
     */
    public static void visit(RegularFile recording, Path scratch, List<Candidate> states, Path survivor, Visit visit)
            throws IOException {
        Map<Integer, List<Candidate>> byEpoch = new HashMap<>();
        for (Candidate c : states) {
            byEpoch.computeIfAbsent(c.epoch(), e -> new ArrayList<>()).add(c);
        }
        TreeReplay.replay(recording, scratch, (tree, epoch, flushesBefore, last) -> {
            for (Candidate c : byEpoch.getOrDefault(epoch, List.of())) {
                Files.createDirectory(survivor);
                tree.save(c.state().pick(), survivor);
                visit.visit(c, survivor);
            }
        });
    }
}

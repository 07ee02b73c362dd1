package io.flushcheck.powercut.internal.filemodel;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.cleanup.WorkDirectory;
import io.flushcheck.powercut.internal.disk.CheckReport;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.files.StateSteps;
import io.flushcheck.powercut.internal.files.TreeReplay;
import io.flushcheck.powercut.internal.files.TreeStates;
import io.flushcheck.powercut.internal.states.OrderedPool;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The crash states of one recorded run on the file model, checked: each written out as a plain directory
 * from a replay of the recording (no mount) and verified there, several at once where asked, each worker with a
 * directory of its own, each state written from the one the directory held before by what differs (whole where a
 * verification changed it), removed at the end; or, once {@link #serveStates()} said so, each of at least
 * {@link TreeStates#SERVED_FROM} names served over a FUSE mount of the worker's own from a tree in memory, for a
 * verification in processes of its own. A failing state is explained by the operations it lost, in the
 * order made, each with the sync that would have kept it, as a cut's discarded operations say them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileCrashStates implements ModelStates {

    private final Path dir;
    /** The recording's files, held open from when they were made or checked (loaded) until {@link #close}. */
    private final RecordingFiles held;
    private final RegularFile recording;
    private final int epochs;
    private final long operations;
    /** The rules by their word: {@code journaled} or {@code posix}. */
    private final String rules;
    /** Whether large states are served over FUSE ({@link #serveStates}) rather than written out. */
    private volatile boolean served;

    /**
     * The recording whose log {@code held} holds, played again in {@code dir}: the disk's work directory, or the one
     * a load of a saved recording claimed ({@link #load}). One this process's server just made ({@code made}) is
     * counted from its records; any other is played again whole first, so that what it says is checked before it is
     * used.
     */
    FileCrashStates(Path dir, RecordingFiles held, boolean made) throws IOException {
        this.dir = dir;
        this.held = held;
        this.recording = held.log();
        // Only counted: the states are enumerated when they are asked for.
        TreeReplay.Replayed played = made ? TreeReplay.count(recording)
                : TreeReplay.replay(recording, scratch(), false, (tree, epoch, flushesBefore, last) -> { });
        this.epochs = played.epochs();
        this.operations = played.operations();
        this.rules = TreeReplay.journaled(recording) ? "journaled" : "posix";
    }

    /** The states of a file model's recording loaded, its log held open in {@code files}, played again in {@code work}, which this claims. */
    public static FileCrashStates load(RecordingFiles files, Path work) throws IOException {
        return new FileCrashStates(Leftovers.claim(work, false), files, false);
    }

    @Override
    public String fs() {
        return "files";
    }

    @Override
    public int atomicWriteBytes() {
        return 1;
    }

    @Override
    public String save(Keeper keeper) throws IOException {
        return keeper.files(recording);
    }

    /** The states of at least {@link TreeStates#SERVED_FROM} names are served over FUSE from here from now on. */
    @Override
    public void serveStates() {
        served = true;
    }

    /** States are drawn on the block model's recordings only. */
    @Override
    public void draw(int count, long seed) {
        throw new UnsupportedOperationException("states are drawn on the block model's recordings only");
    }

    @Override
    public int states(int maxStates, Progress progress) {
        try {
            return states(maxStates, (TreeStates.Progress) progress::enumerated);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The operations, which count as the file model's writes. */
    @Override
    public int writes() {
        return (int) Math.min(Integer.MAX_VALUE, operations);
    }

    @Override
    public void close() throws IOException {
        held.close();
    }

    private Path scratch() throws IOException {
        return Files.createDirectories(dir.resolve("replay"));
    }

    /** The rules the tree was recorded under, which its replays follow: the recording says them. */
    @Override
    public String rules() {
        return rules;
    }

    /** The epochs of the recording: the operations between two syncs, and after the last. */
    @Override
    public int epochs() {
        return epochs;
    }

    /** The operations (name changes, writes, truncations, permission changes) the workload made. */
    long operations() {
        return operations;
    }

    /** The states a check with the bound {@code maxStates} checks, enumerated now if they were not: {@code progress} hears each epoch. */
    int states(int maxStates, TreeStates.Progress progress) throws IOException {
        return enumerated(maxStates, progress).states().size();
    }

    /**
     * The states within {@code maxStates}, enumerated once for a bound: each enumeration replays the whole
     * recording, and a check asks for them after a count did.
     */
    private synchronized TreeStates.Enumerated enumerated(int maxStates, TreeStates.Progress progress)
            throws IOException {
        if (enumerated == null || enumeratedFor != maxStates) {
            enumerated = TreeStates.enumerate(recording, scratch(), maxStates, progress);
            enumeratedFor = maxStates;
        }
        return enumerated;
    }

    private TreeStates.Enumerated enumerated;
    private int enumeratedFor;

    /**
     * On up to {@code workers} workers at once, each with a directory of its own that holds the states it takes in
     * turn: the states are written in the order of their epochs, one at a time, from the one replay of the recording
     * that moves forward (under the pool's lock), and verified beside the other workers' states. A state checked with
     * damages is checked with each on a copy of it made beside it ({@link DamagedCopy}), before it is checked itself:
     * the directory the next state is written from never holds a damage.
     */
    @Override
    public CheckReport check(int maxStates, int shard, int shards, int workers, Verify verification, Damages damages)
            throws IOException {
        long started = System.nanoTime();
        TreeStates.Enumerated space = enumerated(maxStates, TreeStates.Progress.NONE);
        List<TreeStates.Candidate> ordered = space.states();
        // Failures are reported and explained in the enumeration's order, fewest lost first: the order written is by
        // epoch.
        List<Integer> byEpoch = new ArrayList<>();
        for (int i = shard; i < ordered.size(); i += shards) {
            byEpoch.add(i);
        }
        byEpoch.sort(Comparator.comparingInt(i -> ordered.get(i).epoch()));
        List<Checked> checked;
        // Damaged copies are listed and copied by this JVM, which may not use a served state (ServedState): with
        // damages asked, every state is written out.
        boolean serve = served && damages == Damages.NONE;
        try (StateSteps steps = StateSteps.open(recording, scratch())) {
            checked = OrderedPool.run(byEpoch, ordered.size(), workers, number -> {
                String name = number == 0 ? "state" : "state-" + number;
                StateSteps.Place place = serve ? steps.place(dir.resolve(name), dir.resolve(name + "-served"),
                        TreeStates.SERVED_FROM, dir) : steps.place(dir.resolve(name));
                return new StateWorker(steps, place, dir.resolve(name + "-damaged"), ordered, verification, damages);
            });
        }
        int explained = 0;
        long damagedChecks = 0;
        long notPlaced = 0;
        List<CheckReport.Failure> failures = new ArrayList<>();
        List<CheckReport.State> outcomes = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            Checked c = checked.get(i);
            CheckReport.Failure f = c == null ? null : c.failure();
            List<CheckReport.Failure> withDamage = c == null ? List.of() : c.damaged();
            if (f != null && explained++ < EXPLAINED) {
                f = new CheckReport.Failure(f.state(), f.lost(), f.message(), f.cause(), explain(ordered.get(i)));
            }
            if (f != null) {
                failures.add(f);
            }
            failures.addAll(withDamage);
            damagedChecks += c == null ? 0 : c.damagedChecks();
            notPlaced += c == null ? 0 : c.notPlaced();
            CheckReport.Failure first = f != null || withDamage.isEmpty() ? f : withDamage.get(0);
            outcomes.add(new CheckReport.State(describe(ordered.get(i)), ordered.get(i).lost(), first,
                    i % shards == shard));
        }
        return new CheckReport(byEpoch.size(), failures, space.duplicates(), space.leftOut(), maxStates,
                (System.nanoTime() - started) / 1e9, outcomes, ordered.size() - byEpoch.size(), damagedChecks, notPlaced);
    }

    /**
     * One state's checks: its own failure or null, its damaged checks' failures, how many of those ran, and how many
     * damages had no place in it.
     */
    private record Checked(CheckReport.Failure failure, List<CheckReport.Failure> damaged, int damagedChecks,
                           int notPlaced) {
    }

    /**
     * One worker of a check: it has each state it takes written into its directory, in the order the states are
     * taken (under the pool's lock: the states are written from one replay that moves forward), then verifies it
     * there, after its damaged copies, each made in a directory of the worker's own beside it. Its directory is
     * written from the state it held before by what differs, and removed when it is done.
     */
    private static final class StateWorker implements OrderedPool.Worker<Checked> {
        private final StateSteps steps;
        private final StateSteps.Place place;
        private final Path copy;
        private final List<TreeStates.Candidate> ordered;
        private final Verify verification;
        private final Damages damages;

        StateWorker(StateSteps steps, StateSteps.Place place, Path copy, List<TreeStates.Candidate> ordered,
                    Verify verification, Damages damages) {
            this.steps = steps;
            this.place = place;
            this.copy = copy;
            this.ordered = ordered;
            this.verification = verification;
            this.damages = damages;
        }

        @Override
        public void prepare(int item) throws IOException {
            steps.write(ordered.get(item), place);
        }

        @Override
        public Checked check(int item) throws IOException {
            TreeStates.Candidate state = ordered.get(item);
            List<CheckReport.Failure> withDamage = new ArrayList<>();
            int damagedChecks = 0;
            int notPlaced = 0;
            try (StateSteps.Place.Held held = place.hold()) {
                for (Damage d : damages.of(held.path())) {
                    DamagedCopy damaged;
                    try {
                        damaged = DamagedCopy.of(held.path(), copy, d);
                    } catch (IllegalArgumentException e) {
                        notPlaced++; // the state has no such file: nothing to damage there; the report counts it
                        continue;
                    }
                    try (damaged) {
                        damagedChecks++;
                        CheckReport.Failure f = verified(damaged.path(), state);
                        if (f != null) {
                            withDamage.add(new CheckReport.Failure(f.state(), f.lost(), f.message(), f.cause(),
                                    List.of(), new CheckReport.Damaged(d, List.of())));
                        }
                    }
                }
                return new Checked(verified(held.path(), state), withDamage, damagedChecks, notPlaced);
            }
        }

        /** Runs the verification on {@code state} at {@code at}: null when it passed; interrupted, the check ends. */
        private CheckReport.Failure verified(Path at, TreeStates.Candidate state) throws IOException {
            try {
                verification.verify(at, state.flushesBefore());
                return null;
            } catch (InterruptedException e) {
                // Stopped, not judged: the check ends here.
                Thread.currentThread().interrupt();
                InterruptedIOException stopped = new InterruptedIOException("interrupted while verifying "
                        + describe(state));
                stopped.initCause(e);
                throw stopped;
            } catch (Exception | AssertionError e) {
                return new CheckReport.Failure(describe(state), state.lost(), String.valueOf(e.getMessage()), e,
                        List.of());
            }
        }

        @Override
        public void close() throws IOException {
            try {
                String stayed = WorkDirectory.delete(copy, List.of());
                if (stayed != null) {
                    throw new IOException("a crash state's damaged copy " + copy + " " + stayed);
                }
            } finally {
                place.close();
            }
        }
    }

    /** What the state lost, an operation a line in the order made, after a line saying what it is compared with. */
    private static List<String> explain(TreeStates.Candidate state) {
        List<String> lines = new ArrayList<>();
        if (state.lost() == 0) {
            lines.add("it lost no operation: what failed is in what the workload wrote");
            return lines;
        }
        lines.add("compared with its epoch's state that kept every operation, it lost:");
        lines.addAll(state.state().lostOps());
        if (!state.state().note().isEmpty()) {
            lines.add(state.state().note());
        }
        return lines;
    }

    /** When the state is, and what it kept and lost. */
    private static String describe(TreeStates.Candidate state) {
        return (state.flushesBefore() == 0 ? "before the first sync" : "after sync " + state.flushesBefore())
                + (state.last() ? ", to the end of the recording: " : ", before the next: ")
                + state.state().description();
    }
}

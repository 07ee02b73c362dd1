package io.flushcheck.powercut.internal.filemodel;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.cleanup.WorkDirectory;
import io.flushcheck.powercut.internal.disk.CheckReport;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.files.TreeReplay;
import io.flushcheck.powercut.internal.files.TreeStates;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The crash states of one recorded run on the file model, checked: each written out as a plain directory
 * from a replay of the recording (no mount) and verified there, one directory for all, each state written
 * from the one before by what differs (whole where a verification changed it), removed at the end; or, once
 * {@link #serveStates()} said so, each of at least {@link TreeStates#SERVED_FROM} names served over a FUSE mount of its
 * own from a tree in memory, for a verification in processes of its own. A failing
 * state is explained by the operations it lost, in the order made, each with the sync that would have kept
 * it, as a cut's discarded operations say them.
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

    /** One state at a time, whatever {@code workers} says. */
    @Override
    public CheckReport check(int maxStates, int shard, int shards, int workers, Verify verification)
            throws IOException {
        long started = System.nanoTime();
        TreeStates.Enumerated space = enumerated(maxStates, TreeStates.Progress.NONE);
        List<TreeStates.Candidate> ordered = space.states();
        Map<TreeStates.Candidate, Integer> index = new IdentityHashMap<>();
        List<TreeStates.Candidate> mine = new ArrayList<>();
        for (int i = shard; i < ordered.size(); i += shards) {
            index.put(ordered.get(i), i);
            mine.add(ordered.get(i));
        }
        CheckReport.Failure[] failed = new CheckReport.Failure[ordered.size()];
        int[] explained = {0};
        Path survivor = dir.resolve("state");
        Path mountPoint = served ? Files.createDirectories(dir.resolve("served")) : null;
        try {
            // Failures are explained in the enumeration's order, fewest lost first: the order checked is by epoch.
            // One directory for every state: each written from the one before by what differs (what a
            // verification changed in it found and written again).
            TreeStates.visit(recording, scratch(), mine, survivor, mountPoint, (state, at) -> {
                try {
                    verification.verify(at, state.flushesBefore());
                } catch (Exception | AssertionError e) {
                    failed[index.get(state)] = new CheckReport.Failure(describe(state), state.lost(),
                            String.valueOf(e.getMessage()), e, List.of());
                }
            });
        } finally {
            try {
                remove(survivor);
            } finally {
                if (mountPoint != null) {
                    Files.deleteIfExists(mountPoint);
                }
            }
        }
        List<CheckReport.Failure> failures = new ArrayList<>();
        List<CheckReport.State> outcomes = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            CheckReport.Failure f = failed[i];
            if (f != null && explained[0]++ < EXPLAINED) {
                f = new CheckReport.Failure(f.state(), f.lost(), f.message(), f.cause(), explain(ordered.get(i)));
            }
            if (f != null) {
                failures.add(f);
            }
            outcomes.add(new CheckReport.State(describe(ordered.get(i)), ordered.get(i).lost(), f, index.containsKey(
                    ordered.get(i))));
        }
        return new CheckReport(mine.size(), failures, space.duplicates(), space.leftOut(), maxStates,
                (System.nanoTime() - started) / 1e9, outcomes, ordered.size() - mine.size());
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

    private static void remove(Path p) throws IOException {
        String stayed = WorkDirectory.delete(p, List.of());
        if (stayed != null) {
            throw new IOException("a crash state's survivor " + p + " " + stayed);
        }
    }
}

package io.flushcheck.powercut.internal.block;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.disk.CheckReport;
import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.disk.RecordingFiles;
import io.flushcheck.powercut.internal.explain.BlockCutExplanation;
import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.states.CrashState;
import io.flushcheck.powercut.internal.states.CrashStateSpace;
import io.flushcheck.powercut.internal.states.Epoch;
import io.flushcheck.powercut.internal.states.OrderedPool;
import io.flushcheck.powercut.internal.states.RecordedWrite;
import io.flushcheck.powercut.internal.states.Recording;
import io.flushcheck.powercut.internal.states.StateImages;
import io.flushcheck.powercut.internal.states.WritePlaces;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The crash states of one recorded run on the block model, checked on a real filesystem: each state an image made
 * from the drive's log of writes and flushes, mounted (the filesystem replays its journal there), verified and
 * thrown away, several at once where asked, each on a loop device of its own; the first few failing states
 * explained by name as a power cut is.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BlockCrashStates implements ModelStates {

    private final Path work;
    private final Path dir;
    /** The recording's files, held open from when they were made or checked (loaded) until {@link #close}. */
    private final RecordingFiles held;
    private final List<Epoch> epochs;
    private final String fsType;
    private final int atomicUnit;
    private final WritePlaces places;
    /** The filesystem's names as the recording ended; null when they could not be looked at. */
    private final TreeView ended;
    /** Loaded from a recording kept elsewhere ({@link #load}): its links are not followed either. */
    private final boolean foreign;
    private CrashStateSpace.Draws draws = CrashStateSpace.Draws.NONE;

    /**
     * The states of the recording {@code held} holds, whose {@code epochs} are read from its log, checked in
     * {@code dir} (in the disk's work directory {@code work}, or the one a load claimed: then {@code foreign}).
     */
    BlockCrashStates(Path work, Path dir, RecordingFiles held, List<Epoch> epochs, String fsType, int atomicUnit,
                     WritePlaces places, TreeView ended, boolean foreign) {
        this.work = work;
        this.dir = dir;
        this.held = held;
        this.epochs = List.copyOf(epochs);
        this.fsType = fsType;
        this.atomicUnit = atomicUnit;
        this.places = places;
        this.ended = ended;
        this.foreign = foreign;
    }

    /**
     * The states of a block model's recording loaded, its files held open in {@code files}, with what was saved of it,
     * checked in {@code work}, which this claims.
     */
    public static BlockCrashStates load(RecordingFiles files, String fsType, int atomicUnit, WritePlaces places, TreeView ended,
                                 Path work) throws IOException {
        List<Epoch> epochs = Recording.epochs(files.log(), files.base().size());
        Path claimed = Leftovers.claim(work, false);
        return new BlockCrashStates(claimed, claimed, files, epochs, fsType, atomicUnit, places, ended, true);
    }

    @Override
    public String save(Keeper keeper) throws IOException {
        return keeper.block(held.base(), held.log(), fsType, atomicUnit, places, ended);
    }

    @Override
    public String fs() {
        return fsType;
    }

    @Override
    public int atomicWriteBytes() {
        return atomicUnit;
    }

    @Override
    public int epochs() {
        return epochs.size();
    }

    @Override
    public int writes() {
        return epochs.stream().mapToInt(e -> e.writes().size()).sum();
    }

    @Override
    public int states(int maxStates, Progress progress) {
        CrashStateSpace.Enumerated space = enumerated(maxStates);
        progress.enumerated(epochs.size(), space.distinct());
        return space.states().size();
    }

    /** The block model's states within {@code maxStates}, enumerated once for a bound and a draw. */
    private synchronized CrashStateSpace.Enumerated enumerated(int maxStates) {
        if (enumerated == null || enumeratedFor != maxStates || !enumeratedDraws.equals(draws)) {
            enumerated = CrashStateSpace.enumerate(epochs, atomicUnit, maxStates, draws);
            enumeratedFor = maxStates;
            enumeratedDraws = draws;
        }
        return enumerated;
    }

    private CrashStateSpace.Enumerated enumerated;
    private int enumeratedFor;
    private CrashStateSpace.Draws enumeratedDraws = CrashStateSpace.Draws.NONE;

    @Override
    public void draw(int count, long seed) {
        this.draws = new CrashStateSpace.Draws(count, seed);
    }

    @Override
    public CheckReport check(int maxStates, int shard, int shards, int workers, Verify verification,
                             Damages damages) throws IOException {
        long started = System.nanoTime();
        CrashStateSpace.Enumerated space = enumerated(maxStates);
        List<CrashState> ordered = space.states();
        // Images are made epoch by epoch; failures are reported in the enumeration's order, fewest lost first.
        List<Integer> byEpoch = new ArrayList<>();
        for (int i = shard; i < ordered.size(); i += shards) {
            byEpoch.add(i);
        }
        byEpoch.sort(Comparator.comparingInt(i -> ordered.get(i).epoch()));
        StateMounts mounts = new StateMounts(work, fsType, foreign);
        List<CheckReport.State> outcomes = new ArrayList<>();
        List<CheckReport.Failure> failures = new ArrayList<>();
        // The first worker's place also keeps the image of an epoch's start and is where failures are explained.
        try (StateMounts.Place first = mounts.place(dir)) {
            List<Outcome> checked;
            try (StateImages images = images(first.dir())) {
                checked = OrderedPool.run(byEpoch, ordered.size(), workers, number ->
                        new StateWorker(number == 0 ? first : mounts.place(dir), number > 0, images, ordered,
                                verification, damages, mounts));
            }
            List<Integer> explained = new ArrayList<>();
            long damagedChecks = 0;
            long notPlaced = 0;
            for (int i = 0; i < checked.size(); i++) {
                if (checked.get(i) != null && checked.get(i).undamaged() != null && explained.size() < EXPLAINED) {
                    explained.add(i);
                }
                damagedChecks += checked.get(i) == null ? 0 : checked.get(i).damagedChecks();
                notPlaced += checked.get(i) == null ? 0 : checked.get(i).notPlaced();
            }
            List<List<String>> explanations = explain(ordered, explained, first, mounts);
            for (int i = 0; i < checked.size(); i++) {
                CheckReport.Failure f = null;
                Outcome o = checked.get(i);
                if (o != null && o.undamaged() != null) {
                    int at = explained.indexOf(i);
                    f = o.undamaged().failure(at < 0 ? List.of() : explanations.get(at));
                    failures.add(f);
                }
                for (Checked d : o == null ? List.<Checked>of() : o.damaged()) {
                    CheckReport.Failure df = d.failure(List.of());
                    failures.add(df);
                    f = f == null ? df : f;
                }
                outcomes.add(new CheckReport.State(describe(ordered.get(i)), ordered.get(i).lost(), f,
                        i % shards == shard));
            }
            return new CheckReport(byEpoch.size(), failures, space.duplicates(), space.leftOut(), maxStates,
                    (System.nanoTime() - started) / 1e9, outcomes, ordered.size() - byEpoch.size(), damagedChecks, notPlaced);
        }
    }

    /**
     * One worker of a check: it makes each state's image in its place, in the order the states are taken (under the
     * pool's lock: the images are made from one image that moves forward), then mounts and verifies it there.
     */
    private final class StateWorker implements OrderedPool.Worker<Outcome> {
        private final StateMounts.Place place;
        private final boolean own;
        private final StateImages images;
        private final List<CrashState> ordered;
        private final Verify verification;
        private final Damages damages;
        private final StateMounts mounts;

        /** {@code own}: the place is this worker's, removed when it is done. */
        StateWorker(StateMounts.Place place, boolean own, StateImages images, List<CrashState> ordered,
                    Verify verification, Damages damages, StateMounts mounts) {
            this.place = place;
            this.own = own;
            this.images = images;
            this.ordered = ordered;
            this.verification = verification;
            this.damages = damages;
            this.mounts = mounts;
        }

        @Override
        public void prepare(int item) throws IOException {
            images.write(ordered.get(item), place.image());
        }

        @Override
        public Outcome check(int item) throws IOException {
            CrashState state = ordered.get(item);
            if (damages == Damages.NONE) {
                Checked c = checkOne(state, place, verification, mounts, Damages.NONE, new ArrayList<>());
                return c == null ? null : new Outcome(c, List.of(), 0, 0);
            }
            try (StateDamage damage = StateDamage.keep(place, fsType)) {
                List<Damage> listed = new ArrayList<>();
                Checked undamaged = checkOne(state, place, verification, mounts, damages, listed);
                List<Checked> damaged = new ArrayList<>();
                long done = 0;
                long notPlaced = 0;
                for (Damage d : listed) {
                    damage.restore();
                    Checked c = checkDamaged(state, place, verification, mounts, damage, d);
                    if (c == NOT_PLACED) {
                        notPlaced++;
                        continue;
                    }
                    done++;
                    if (c != null) {
                        damaged.add(c);
                    }
                }
                return undamaged == null && damaged.isEmpty() && done == 0 && notPlaced == 0 ? null
                        : new Outcome(undamaged, damaged, done, notPlaced);
            }
        }

        @Override
        public void close() throws IOException {
            if (own) {
                place.close();
            }
        }
    }

    /** A failing state as its check left it: what the verification said, with the damage placed (null: none). */
    private record Checked(String state, int lost, String message, Throwable cause, CheckReport.Damaged damaged) {

        Checked(String state, int lost, String message, Throwable cause) {
            this(state, lost, message, cause, null);
        }

        CheckReport.Failure failure(List<String> explanation) {
            return new CheckReport.Failure(state, lost, message, cause, explanation, damaged);
        }
    }

    /** A damage whose file or bytes the state did not have: not checked. */
    private static final Checked NOT_PLACED = new Checked("", 0, "", null);

    /**
     * What the checks of one state found: its failure undamaged (null: passed), its failing damaged checks, and how
     * many damaged checks were made, and how many damages had no place in it; null for a state that passed with
     * nothing else to count (no damaged check made, failed or left unplaced).
     */
    private record Outcome(Checked undamaged, List<Checked> damaged, long damagedChecks, long notPlaced) {
    }

    /** The later epochs whose complete state is looked at when the failing state's own shows no difference. */
    private static final int LATER_EPOCHS = 2;

    /**
     * For each failing state of {@code which}, what its survivor lacks by name, with the sync that would have kept
     * it: compared with the state of its epoch that kept every write (materialized and mounted again here); where
     * that shows no difference (what was acknowledged needed writes of a later epoch), with the complete state of
     * each of the next {@value #LATER_EPOCHS} epochs, the first that differs; then with the filesystem as the
     * recording ended. The first line names what it was compared with.
     */
    private List<List<String>> explain(List<CrashState> ordered, List<Integer> which, StateMounts.Place place,
                                       StateMounts mounts) throws IOException {
        List<List<String>> lines = new ArrayList<>();
        for (int i : which) {
            lines.add(explain(ordered.get(i), place, mounts));
        }
        return lines;
    }

    private List<String> explain(CrashState state, StateMounts.Place place, StateMounts mounts) throws IOException {
        TreeView survivor;
        // Images go forward only: each explanation makes its own, from the recording's start.
        try (StateImages images = images(place.dir())) {
            // The state's names as the crash left them, mounted again: its verification may have changed them
            // (SQLite rolls a hot journal back and deletes it as it opens the database).
            images.write(state, place.image());
            survivor = look(place, mounts);
            if (survivor == null) {
                return List.of();
            }
            int last = Math.min(epochs.size() - 1, state.epoch() + LATER_EPOCHS);
            for (int e = state.epoch(); e <= last; e++) {
                if (e == epochs.size() - 1 && state.epoch() == e && state.lost() == 0) {
                    break; // the state is its epoch's complete one
                }
                int n = epochs.get(e).writes().size();
                images.write(new CrashState(e, CrashState.Kind.PREFIX, n, 0, 0), place.image());
                TreeView whole = look(place, mounts);
                if (whole == null) {
                    continue;
                }
                List<String> differences = BlockCutExplanation.differences(whole, survivor);
                if (!differences.isEmpty()) {
                    List<String> lines = new ArrayList<>();
                    lines.add("compared with " + (e == state.epoch() ? "its epoch's state with every write kept"
                            : "the state with every write up to " + (e == epochs.size() - 1 ? "the end of the recording"
                            : "flush " + epochs.get(e + 1).flushesBefore()) + " kept") + ":");
                    lines.addAll(differences);
                    return lines;
                }
            }
        }
        List<String> differences = ended == null ? List.of() : BlockCutExplanation.differences(ended, survivor);
        if (differences.isEmpty()) {
            return List.of("no name or file differs from " + (ended == null ? "its epoch's state with every write kept"
                    : "the filesystem as the recording ended") + ": what failed is in the files' bytes");
        }
        List<String> lines = new ArrayList<>();
        lines.add("compared with the filesystem as the recording ended:");
        lines.addAll(differences);
        return lines;
    }

    /** Images of this recording's states, the image of an epoch's start kept in {@code place}. */
    private StateImages images(Path place) throws IOException {
        return StateImages.open(held.base(), held.log().channel(), held.base().size(), epochs, place);
    }

    @Override
    public void close() throws IOException {
        held.close();
    }

    /** Mounts the image in {@code place} and takes its names; null when it does not mount. */
    private static TreeView look(StateMounts.Place place, StateMounts mounts) throws IOException {
        return mounts.mounted(place, TreeView::of, notMounted -> null);
    }

    /**
     * Mounts the image in {@code place}, {@code state}'s, verifies it and takes it down: null when it passed. The
     * damages {@code damages} lists for it, before it is verified, are added to {@code listed}.
     */
    private Checked checkOne(CrashState state, StateMounts.Place place, Verify verification,
                             StateMounts mounts, Damages damages, List<Damage> listed) throws IOException {
        return mounts.mounted(place, survivor -> {
            listed.addAll(damages.of(survivor));
            return verified(state, survivor, verification, null);
        }, e -> new Checked(describe(state), state.lost(), "the filesystem did not mount: " + e.getMessage(), e));
    }

    /**
     * Mounts the image in {@code place}, the state as the crash left it ({@link StateDamage#restore}), places
     * {@code d} in it, verifies it and takes it down: null when it passed, {@link #NOT_PLACED} when the state has no
     * place for the damage.
     */
    private Checked checkDamaged(CrashState state, StateMounts.Place place, Verify verification,
                                 StateMounts mounts, StateDamage damage, Damage d) throws IOException {
        return mounts.mounted(place, survivor -> {
            List<ModelDisk.FaultRange> ranges;
            try {
                ranges = damage.place(d, survivor);
            } catch (IllegalArgumentException e) {
                return NOT_PLACED; // a hole, an inline or unwritten extent: no bytes of the file's own to damage
            }
            return verified(state, survivor, verification, new CheckReport.Damaged(d, ranges));
        }, e -> new Checked(describe(state), state.lost(), "the filesystem did not mount: " + e.getMessage(), e,
                new CheckReport.Damaged(d, List.of())));
    }

    /** Runs {@code verification} on the mounted {@code state}: null when it passed. */
    private Checked verified(CrashState state, Path survivor, Verify verification, CheckReport.Damaged damaged)
            throws IOException {
        try {
            verification.verify(survivor, epochs.get(state.epoch()).flushesBefore());
            return null;
        } catch (InterruptedException e) {
            // Stopped, not judged: the check ends here, the state taken down first.
            Thread.currentThread().interrupt();
            InterruptedIOException stopped = new InterruptedIOException("interrupted while verifying "
                    + describe(state));
            stopped.initCause(e);
            throw stopped;
        } catch (Exception | AssertionError e) {
            return new Checked(describe(state), state.lost(), String.valueOf(e.getMessage()), e, damaged);
        }
    }

    /** What {@code state} kept and lost, with the places of the writes it dropped or tore on the drive. */
    String describe(CrashState state) {
        Epoch epoch = epochs.get(state.epoch());
        List<RecordedWrite> writes = epoch.writes();
        int n = writes.size();
        boolean last = state.epoch() == epochs.size() - 1;
        if (n == 0) {
            return "after flush " + epoch.flushesBefore() + ", the end of the recording, no write after it";
        }
        String at = "after flush " + epoch.flushesBefore() + " (" + n + (n == 1 ? " write" : " writes")
                + (last ? " to the end of the recording): " : " before the next flush): ");
        return switch (state.kind()) {
            case PREFIX -> at + (state.write() == n ? "all kept"
                    : "the first " + state.write() + " kept, the " + (n - state.write()) + " after them lost (from "
                    + place(writes.get(state.write())) + ")");
            case DROP -> at + "write " + (state.write() + 1) + " (" + place(writes.get(state.write())) + ") lost, the "
                    + (n - state.write() - 1) + " after it kept";
            case TORN -> at + "the first " + state.write() + " kept, write " + (state.write() + 1) + " ("
                    + place(writes.get(state.write())) + ") torn after its first " + state.keptBytes() + " bytes, the "
                    + (n - state.write() - 1) + " after it lost";
            case DRAWN -> at + "draw " + state.write() + " of seed " + draws.seed() + ": " + lostOf(state, writes);
        };
    }

    /** The writes a drawn state lost, by number and place: the first three named, the rest counted. */
    private String lostOf(CrashState state, List<RecordedWrite> writes) {
        List<String> named = new ArrayList<>();
        int lost = 0;
        for (int i = 0; i < writes.size(); i++) {
            if (!state.keeps(i) && lost++ < 3) {
                named.add((i + 1) + " (" + place(writes.get(i)) + ")");
            }
        }
        return (lost == 1 ? "write " : "writes ") + String.join(", ", named) + (lost > 3 ? " and " + (lost - 3)
                + " more" : "") + " lost, the other " + (writes.size() - lost) + " kept";
    }

    /** Where {@code w} wrote: on the drive, and in which file's bytes as the recording ended. */
    private String place(RecordedWrite w) {
        String files = places.name(w.offset(), w.length());
        return w.length() + " bytes at drive byte " + w.offset() + (files.isEmpty() ? ", no file's data" : ", " + files);
    }
}

package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.block.BlockCrashStates;
import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.cleanup.WorkDirectory;
import io.flushcheck.powercut.internal.disk.CheckReport;
import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ModelStates;
import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.filemodel.FileCrashStates;
import io.flushcheck.powercut.internal.model.MalformedRecordingException;
import io.flushcheck.powercut.internal.states.WritePlaces;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apiguardian.api.API;

/**
 * The crash states of one recorded run of a workload ({@link SimulatedDisk#recordCrashStates}), each checked:
 * on the block model on a real filesystem, the drive having logged every write and flush while the workload
 * ran once with the power on, each state an image made from that log, mounted (the filesystem replays its
 * journal there), verified and thrown away; on the file model, each state written out as a plain directory
 * from the tree's log of operations and verified, one directory for all of them, each written from the one
 * before by what differs (or, for a verification in processes of its own, served over FUSE:
 * {@link #servedToProcesses()}). The workload runs once, however many states are checked. On the block model several
 * states are checked at once, each on a loop device of its own, where the verification may run on several threads
 * at once ({@link #inParallel()}).
 *
 * <pre>{@code
 * CrashStates states = disk.recordCrashStates(acknowledged -> {
 *     try (Journal journal = Journal.open(disk.path().resolve("journal"))) {
 *         for (String r : records) {
 *             journal.append(r);                 // returns once synced
 *             acknowledged.add(r);
 *         }
 *     }
 * });
 * states.check(500, (survivor, mustSurvive) ->
 *         assertThat(Journal.readAll(survivor.resolve("journal"))).containsAll(mustSurvive))
 *     .assertPassed();
 * }</pre>
 *
 * <p>The states of each epoch (the writes between two completed flushes, and after the last): every prefix
 * of its writes in the order the drive received them, each write dropped with every later one kept, and on
 * a drive made to write less than 4 KiB atomically each written sector torn in half (its first 2 KiB new,
 * the rest as before). States that leave the same bytes in the same places are checked once; the others
 * in order of the writes they lose, fewest first, up to the bound, and the report counts those the bound
 * left out. At a state of an epoch after {@code f} completed flushes, what must survive is what the workload
 * acknowledged ({@link AcknowledgedRecords#add}) with at most {@code f} flushes completed.
 *
 * <p>A failing state names the write it lost or tore by its place on the drive and by the file whose bytes
 * lie there as the recording ended (FIEMAP), or says that no file's data does (the filesystem's metadata or
 * journal, or space freed since). The first few failing states are explained by name as a power cut is: the
 * names and files of the survivor that differ (by inode, size and modification time) from the state of the
 * same epoch that kept every write, mounted for that, with the sync that would have kept each. Where that
 * state differs in no name (the acknowledged change needed a later epoch's writes, such as the journal
 * commit after the next flush), the complete state of the next epochs is compared, then the filesystem as
 * the recording ended. The recording and the images are files in the disk's work directory,
 * removed when the disk closes.
 *
 * <p>On the file model an epoch is the operations between two syncs (every sync is a flush there), and
 * after the last. Its states, of the changes made since their last sync as the epoch ends: those the
 * disk's {@link FileRules} had made durable; every prefix of the name changes (under the journaled rules the
 * one log of them, under POSIX's each directory's with the other directories' all kept; a rename's two
 * names go together within one log: under POSIX's, a rename between directories follows each one's sync), every
 * write kept; each page of a file as it was before each of the writes and truncations that touched it, the rest
 * kept (within a page a prefix in time of its writes survives, as page-cache writeback keeps them: see
 * {@link FileRules}); each prefix of a file's truncations; all kept. Each
 * is a state a power cut of the file model keeps for some seed. States of one epoch that keep the same names,
 * permission bits and bytes are checked once; the rest in order of the operations they lose, fewest first,
 * up to the bound. A failing state is explained by the operations it lost, in the order made, each with the
 * sync that would have kept it, as {@link PowerCut#discarded()} says a cut's. {@link #writes()} counts the
 * operations, {@link #atomicWriteBytes()} is 1 and {@link #fs()} is {@code files}. Its recording is the
 * tree's log of operations alone, which {@link #save} keeps and {@link #load} checks without root or a mount.
 *
 * <p>{@link #damaged} checks each state besides with damaged blocks of the files it holds, bit rot and zeroed, each
 * alone on the state as the crash left it, each failing check naming the state and the damage.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class CrashStates implements AutoCloseable {

    /**
     * The check run on each state's survivor: one state at a time, on the thread that called {@link #check}; on as
     * many threads at once as {@link #inParallel(int)} says, each with a survivor of its own.
     */
    @FunctionalInterface
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public interface Verification {
        /**
         * Checks the filesystem mounted at {@code survivor}, throwing (an assertion) when it is wrong;
         * {@code mustSurvive} is what was acknowledged before the state, in order.
         */
        void verify(Path survivor, List<String> mustSurvive) throws Exception;
    }

    /** The model the workload was recorded on. */
    private final DiskModel model;
    /** What the recording's model checks and shows. */
    private final ModelStates states;
    /** What the workload acknowledged while it was recorded. */
    private final AcknowledgedRecords acknowledged;
    /** The id of the recording as saved or loaded ({@link #save}); null before. */
    private String id;
    /** The block model's states checked at once ({@link #inParallel(int)}). */
    private int workers = 1;
    /** The damaged blocks each state is checked with besides ({@link #damaged}). */
    private ModelStates.Damages damages = ModelStates.Damages.NONE;

    /**
     * The face of {@code states}, made by {@code model}, of a workload that acknowledged {@code acknowledged};
     * {@code id} the recording's as loaded, or null.
     */
    CrashStates(DiskModel model, ModelStates states, AcknowledgedRecords acknowledged, String id) {
        this.model = model;
        this.states = states;
        this.acknowledged = acknowledged;
        this.id = id;
    }

    /**
     * Keeps the recording in {@code saved}, a directory made now (or empty): the drive's image before the workload
     * (copied sparse), its log of writes and flushes, and a text manifest of the rest (the model, what was
     * acknowledged with the flushes completed then, the filesystem, the atomic unit, the files' places on the drive
     * and the names as the recording ended). On the file model: the tree's log of operations (which starts with
     * the tree as it was and names the rules) and the manifest of the model and what was acknowledged. {@link #load}
     * reads it back, on this machine or another, to check its states there.
     *
     * @return the recording's id: the SHA-256 of its manifest, which names each file's own hash
     */
    public String save(Path saved) throws IOException {
        id = states.save(new ModelStates.Keeper() {
            @Override
            public String block(RegularFile base, RegularFile log, String fsType, int atomicUnit, WritePlaces places,
                                TreeView ended) throws IOException {
                return SavedRecording.save(saved, base, log, acknowledged, fsType, atomicUnit, places, ended);
            }

            @Override
            public String files(RegularFile log) throws IOException {
                return SavedRecording.saveFiles(saved, log, acknowledged);
            }
        });
        return id;
    }

    /**
     * The recording {@link #save} kept in {@code saved}, to be checked here: the states' images and their mount
     * point are made in {@code work}, a directory this makes, marked as flushcheck's so that a cleanup after a
     * killed run finds it; each is removed once checked, and the caller deletes {@code work} when done. A block
     * model's recording is checked as root, as every check of it: the states are mounted. A file model's needs no
     * root: its states are written out as plain directories ({@link #model()} says which it is). First it removes
     * what runs killed before their end left beside {@code work}, as a new disk does. The recording's files are
     * opened once, checked and held open until {@link #close}: the states are made from what was checked, whatever
     * is put in the files' places meanwhile.
     *
     * @throws UnreadableRecordingException when {@code saved} holds no whole recording: a file missing, cut short or
     *                                      changed since it was saved, or a log that does not read as one
     * @throws IOException                  when {@code work} cannot be made, or a file cannot be read
     */
    public static CrashStates load(Path saved, Path work) throws IOException {
        for (String cleaned : Leftovers.sweepDue(work.toAbsolutePath().getParent())) {
            System.err.println("flushcheck powercut: " + cleaned);
        }
        SavedRecording.Loaded r = SavedRecording.load(saved);
        ModelStates states;
        try {
            states = r.model() == DiskModel.FILE ? FileCrashStates.load(r.files(), work)
                    : BlockCrashStates.load(r.files(), r.fsType(), r.atomicUnit(), r.places(), r.ended(), work);
        } catch (MalformedRecordingException e) {
            r.files().close();
            // Its SHA-256 is the one saved, so it was kept whole: it was malformed when it was saved.
            throw new UnreadableRecordingException(saved + ": " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            r.files().close();
            throw e;
        }
        return new CrashStates(r.model(), states, r.acknowledged(), r.id());
    }

    /**
     * Deletes the work directory {@link #load} made in {@code work}, once its checks are done: only a directory of
     * this user's, each entry through its directory's descriptor, following no link, its markers last.
     *
     * @return null when it is gone (or was never made); otherwise what stayed and why, as a phrase
     */
    public static String deleteWork(Path work) {
        return WorkDirectory.delete(work, Leftovers.MARKERS);
    }

    /**
     * Why {@link #save} would refuse {@code dir}, or null where it would save there: a symbolic link, a directory
     * another user owns or others may write, or one that is not empty. A caller asks before the run it records,
     * so that a refused directory costs no run; {@link #save} checks again on the directory it opens.
     */
    public static String refusedSaveDirectory(Path dir) throws IOException {
        return SaveDirectory.refusal(dir);
    }

    /**
     * The model of the recording {@link #save} kept in {@code saved}, read from its manifest alone, so that a caller
     * can tell what checking it needs (root, for a block model's) before {@link #load} reads its files whole.
     *
     * @throws UnreadableRecordingException when {@code saved} holds no manifest this version reads
     */
    public static DiskModel savedModel(Path saved) throws IOException {
        return SavedRecording.model(saved);
    }

    /** The model the workload was recorded on: {@link DiskModel#BLOCK} or {@link DiskModel#FILE}. */
    public DiskModel model() {
        return model;
    }

    /**
     * The file model's rules the workload was recorded under, which its states follow, a loaded recording's
     * included; null on the block model, whose states are its filesystem's.
     */
    public FileRules rules() {
        String word = states.rules();
        return word == null ? null : FileRules.of(word);
    }

    /** The id of the recording once saved or as loaded ({@link #save}); null for one neither saved nor loaded. */
    public String recordingId() {
        return id;
    }

    /** The filesystem the workload ran on, which each state is mounted as. */
    public String fs() {
        return states.fs();
    }

    /** The bytes the drive wrote atomically: under 4096, its states include torn sectors. */
    public int atomicWriteBytes() {
        return states.atomicWriteBytes();
    }

    /** What the workload acknowledged while it was recorded. */
    public AcknowledgedRecords acknowledged() {
        return acknowledged;
    }

    /**
     * The epochs of the recording that hold writes (and the last, which may not): the writes between two flushes.
     * On the file model, every sync ends one: the operations between two syncs, and after the last.
     */
    public int epochs() {
        return states.epochs();
    }

    /**
     * The writes the drive received while the workload was recorded; on the file model, the operations: name
     * changes, writes, truncations and permission changes.
     */
    public int writes() {
        return states.writes();
    }

    /** The states {@link #check} checks with the bound {@code maxStates}: the distinct ones, at most the bound. */
    public int states(int maxStates) {
        return states(maxStates, (epochs, states) -> { });
    }

    /**
     * As {@link #states(int)}, telling {@code progress} how far the enumeration is: on the file model after each
     * epoch of the recording is played again, on the block model once its epochs are done. A check enumerates them
     * once for a bound, here or in {@link #check} when none was asked for.
     */
    public int states(int maxStates, EnumerationProgress progress) {
        return states.states(maxStates, progress::enumerated);
    }

    /** Hears how far an enumeration of the states is ({@link #states(int, EnumerationProgress)}). */
    @FunctionalInterface
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public interface EnumerationProgress {
        /** {@code epochs} of the recording's {@link #epochs()} enumerated, {@code states} distinct states found in them. */
        void enumerated(int epochs, long states);
    }

    /**
     * Checks, beyond the states enumerated, up to {@code count} distinct states drawn from {@code seed}: in an
     * epoch of at least three writes, each write kept or lost on its own, as a drive that reorders its writes
     * freely may leave them, where the enumeration loses a prefix's end or one write. They come after the
     * enumerated states, within the same bound, in the order drawn; the same seed draws the same states, here
     * or where the recording is loaded. The block model's only: the file model's states lose one pending change at
     * a time (or a prefix of the name changes), and drawing subsets of them is not built.
     *
     * @return this, to check
     * @throws UnsupportedOperationException on the file model
     */
    public CrashStates draw(int count, long seed) {
        states.draw(count, seed);
        return this;
    }

    /**
     * Checks each state besides with up to {@code blocks} damaged blocks of the files it holds, each alone: bit rot
     * (one bit flipped, drawn from the seed) and zeroed blocks of 4096 bytes, as
     * {@link #damaged(List, int, int, long)} says.
     *
     * @return this, to check
     */
    public CrashStates damaged(int blocks, long seed) {
        return damaged(List.of(DataFault.Kind.BIT_ROT, DataFault.Kind.ZEROED), 4096, blocks, seed);
    }

    /**
     * Checks each state, besides as the crash left it, with up to {@code blocks} damaged blocks of the
     * regular files it holds, each alone on the state as the crash left it: the state's files cut into blocks of
     * {@code blockBytes}, each with each of {@code kinds}, and {@code blocks} of those (block, kind) pairs spread
     * evenly over them in order of file name, offset and kind, each bit rot's bit drawn from {@code seed}, as
     * {@link CorruptedBlocks} spreads its invocations over a survivor's; the same seed damages the same bits of the
     * same state, here or where the recording is loaded. The damage is placed where the state's bytes are: on the
     * block model in the state's image, where FIEMAP places the file's bytes as the state is mounted (as
     * {@link SimulatedDisk#corrupt} damages a survivor's image), the file's and the drive's cached pages dropped; on
     * the file model in a copy of the state's directory. Each damaged check starts from the state as the crash left
     * it (the image made again before its mount; a fresh copy), and no damage reaches the next state, nor the state's
     * own check undamaged. The order differs by model: the block model checks a state undamaged first, the file
     * model its damaged copies first; the report is the same either way.
     *
     * <p>The verification runs once per state and once per damage, so a check costs up to {@code 1 + blocks} times
     * as much: {@link CrashStateReport#damagedChecks()} counts the damaged checks. A failing damaged check is a
     * failure of its own in the report ({@link CrashStateReport.Failure#damage()}, {@link
     * CrashStateReport.Failure#done()}): the state and the damage ({@code after flush 3 (...): all kept, with bit 3 of
     * byte 8200 of db/wal flipped}). A block whose bytes the state's file does not hold, or that has no place of its
     * own on the drive (inline in btrfs's metadata, a hole), is not checked in that state. 0 blocks: no damage.
     *
     * @return this, to check
     * @throws IllegalArgumentException for no kind, a block under 1 byte or fewer than 0 blocks
     */
    public CrashStates damaged(List<DataFault.Kind> kinds, int blockBytes, int blocks, long seed) {
        StateDamages d = StateDamages.sweep(kinds, blockBytes, blocks, seed);
        this.damages = blocks == 0 ? ModelStates.Damages.NONE : d;
        return this;
    }

    /**
     * Checks each state besides with {@code block} alone damaged, where the state's file holds its bytes: a failing
     * damaged check of a report ({@link CrashStateReport.Failure#damage()}), checked again.
     *
     * @return this, to check
     * @throws IllegalArgumentException for {@link DamagedBlock}'s "nothing damaged"
     */
    public CrashStates damaged(DamagedBlock block) {
        this.damages = StateDamages.only(block);
        return this;
    }

    /** The system property that sets {@link #defaultWorkers()}: a number from 1 to {@value #MAX_WORKERS}. */
    public static final String WORKERS_PROPERTY = "flushcheck.powercut.workers";

    /** The most workers {@link #inParallel(int)} takes. */
    public static final int MAX_WORKERS = 64;

    /**
     * Checks the states on up to {@code workers} workers at once: on the block model each with a loop device, an
     * image and a mount point of its own (each as private as one alone: in a directory of mode 0700 whose name no one
     * can guess beforehand, mounted as data); on the file model each with a directory of its own in the disk's work
     * directory, which holds the states it takes in turn (they are written one at a time, in order, from one replay
     * of the recording, and verified at once). Up to that many times as many states a second, as the machine's cores
     * allow; on the file model as the verification's share of each state's time allows too: little for a check as
     * quick as writing the state out, nearly that many times for a slow one. The verification is then called by
     * that many threads at once, each call with a survivor of its own: it must be safe for that, sharing nothing
     * among its calls unguarded. The report is the same whatever the number: the same states in the same order, the
     * same failures, the same first few explained. What stops a check (a filesystem this machine cannot mount, no
     * loop device at all, an {@link Error} thrown by the verification) stops it as it would with one worker, once the states begun are checked and taken down; a
     * worker that finds no free loop device while another holds one waits for it. 1, the default, checks one state
     * at a time on the calling thread.
     *
     * @return this, to check
     * @throws IllegalArgumentException for a number below 1 or above {@value #MAX_WORKERS}
     */
    public CrashStates inParallel(int workers) {
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("workers are from 1 to " + MAX_WORKERS + ": not " + workers);
        }
        this.workers = workers;
        return this;
    }

    /** As {@link #inParallel(int)} with {@link #defaultWorkers()}: twice as many workers as the machine's cores. */
    public CrashStates inParallel() {
        return inParallel(defaultWorkers());
    }

    /** The states {@link #check} checks at once: 1 unless {@link #inParallel(int)} said more. */
    public int workers() {
        return workers;
    }

    /**
     * On the file model, serves each state of at least 10,000 names over a FUSE mount of its own, from a tree made in
     * memory (each from the one before by what differs, whole again where the check before changed it), instead of
     * writing its files into a directory: a run of {@code flushcheck powercut explore} over five states of 100,000
     * files took 14.1 s served against 22.8 s written out (medians of five rounds, 2 cores, load 0.7 to 5; the
     * guide's benchmarks page). The verification sees the same names, permission
     * bits (the kernel checks them), hard links and bytes, and may change them, as in a directory; it must use the
     * states only from processes of its own (a command it runs, as {@code flushcheck powercut --explore}'s VERIFY
     * is): their server is a thread of this JVM, and a thread of this JVM that mapped a file of the mount could
     * fault while the server needs the same lock to answer it. Smaller states are written out as directories, and so
     * is every state when damaged checks are asked ({@link #damaged}): this JVM lists and copies a state to damage
     * it. The block model mounts its states whatever this says.
     *
     * @return this, to check
     */
    public CrashStates servedToProcesses() {
        states.serveStates();
        return this;
    }

    /**
     * The workers of {@link #inParallel()}: the system property {@value #WORKERS_PROPERTY} where set (1 checks one
     * state at a time), else twice the machine's processors (at most {@value #MAX_WORKERS}): a state's check waits
     * on the kernel's threads (the filesystem's journal thread made at each mount, the loop device's reads and
     * writes, the journal's commits) about as long as it computes, and another worker's check fills that time.
     *
     * @throws IllegalArgumentException naming the property and its value when that is not a number from 1 to
     *                                  {@value #MAX_WORKERS}
     */
    public static int defaultWorkers() {
        String set = System.getProperty(WORKERS_PROPERTY);
        if (set == null || set.isBlank()) {
            return Math.min(MAX_WORKERS, 2 * Runtime.getRuntime().availableProcessors());
        }
        try {
            int n = Integer.parseInt(set.strip());
            if (n >= 1 && n <= MAX_WORKERS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(WORKERS_PROPERTY + "=" + set + ": the crash states checked at once are a"
                + " number from 1 to " + MAX_WORKERS);
    }

    /**
     * Mounts each crash state (on the file model, writes it into a directory), up to {@code maxStates} of
     * them, and runs {@code verification} on it.
     *
     * @return the states checked, failing, duplicated and left out; {@link CrashStateReport#assertPassed()} fails
     *     on the smallest failing state
     */
    public CrashStateReport check(int maxStates, Verification verification) throws IOException {
        return check(maxStates, 0, 1, verification);
    }

    /**
     * Checks one share of the states, so that {@code shards} machines (a CI matrix, an indexed job) check all of
     * them between them: the states whose index in the enumeration's order, fewest writes lost first, is
     * {@code shard} modulo {@code shards}. The others are in the report's states, marked not checked
     * ({@link CrashStateReport.State#checked()}), and counted apart ({@link CrashStateReport#otherShards()}).
     * Interleaving gives each shard states of every size, so the shards take about as long. The failing states
     * explained are the first few of this shard's.
     *
     * @param shard from 0 to {@code shards - 1}
     */
    public CrashStateReport check(int maxStates, int shard, int shards, Verification verification) throws IOException {
        if (shards < 1 || shard < 0 || shard >= shards) {
            throw new IllegalArgumentException("a shard is from 0 to one less than the shards, at least 1: not " + shard
                    + " of " + shards);
        }
        return report(states.check(maxStates, shard, shards, workers,
                (survivor, flushesBefore) -> verification.verify(survivor, acknowledged.acknowledgedBy(flushesBefore)),
                damages), model);
    }

    /** The model's report as this face shows it: each failure once, the same in the failures and in its state. */
    private static CrashStateReport report(CheckReport r, DiskModel model) {
        Map<CheckReport.Failure, CrashStateReport.Failure> shown = new IdentityHashMap<>();
        Function<CheckReport.Failure, CrashStateReport.Failure> face = f -> f == null ? null : shown.computeIfAbsent(f,
                g -> g.damaged() == null
                        ? new CrashStateReport.Failure(g.state(), g.lost(), g.message(), g.cause(), g.explanation())
                        : new CrashStateReport.Failure(g.state(), g.lost(), g.message(), g.cause(), g.explanation(),
                                (DamagedBlock) g.damaged().damage().block(), done(g.damaged(), model)));
        List<CrashStateReport.Failure> failures = new ArrayList<>();
        for (CheckReport.Failure f : r.failures()) {
            failures.add(face.apply(f));
        }
        List<CrashStateReport.State> states = new ArrayList<>();
        for (CheckReport.State s : r.states()) {
            states.add(new CrashStateReport.State(s.state(), s.lost(), face.apply(s.failure()), s.checked()));
        }
        return new CrashStateReport(r.checked(), failures, r.duplicates(), r.leftOut(), r.maxStates(), r.seconds(),
                states, r.otherShards(), r.damagedChecks(), r.notPlaced());
    }

    /** What a damage changed, as {@link SimulatedDisk#corrupt} says it: on the block model with the image's bytes. */
    private static String done(CheckReport.Damaged damaged, DiskModel model) {
        ModelStates.Damage d = damaged.damage();
        List<Corruption.DriveRange> drive = new ArrayList<>();
        for (ModelDisk.FaultRange r : damaged.drive()) {
            drive.add(new Corruption.DriveRange(r.from(), r.length()));
        }
        return new Corruption(Path.of(d.file()), d.file(), d.offset(), d.length(), d.bit(), true,
                model == DiskModel.BLOCK ? drive : List.of()).toString();
    }

    /**
     * The failing states explained by file, fewest writes lost first: a person reads the first few. A shard
     * explains its own first few, among which are those of all the shards' first few that it checked.
     */
    public static final int EXPLAINED = ModelStates.EXPLAINED;

    /**
     * Closes the recording's files this holds open; its states are not checked after. A disk closes those it
     * made as it closes; a loaded recording's are the caller's to close.
     */
    @Override
    public void close() throws IOException {
        states.close();
    }
}

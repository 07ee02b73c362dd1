package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.disk.ModelDisk;
import io.flushcheck.powercut.internal.disk.ServedDisk;
import io.flushcheck.powercut.internal.drive.SectorStore;
import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.powercut.internal.host.DriveClient;
import io.flushcheck.powercut.internal.kernel.Filesystems;
import io.flushcheck.powercut.internal.kernel.LoopsExhaustedException;
import io.flushcheck.powercut.internal.model.PowerLossModel;
import io.flushcheck.powercut.internal.sys.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A real filesystem on a simulated drive whose power a test can cut. The drive is one file served by a
 * FUSE server of flushcheck's own (in a child process), with a volatile write cache: a flush makes what
 * was written before it durable, and a power cut keeps only that ({@link #cutPower()}), or that and a
 * seeded random subset of the sectors written since ({@link #cutPower(long)}). A loop device on the file
 * carries the filesystem (ext4 by default; xfs and btrfs too), so the kernel's filesystem code runs
 * unchanged and its flushes and FUA writes reach the drive as they would reach a disk. After a cut, the
 * surviving image is mounted at a new path (the filesystem replays its journal or log there) for the test
 * to inspect.
 *
 * <p>That is the block model ({@link DiskModel#BLOCK}), made by {@link #builder()} as every disk is. The file model
 * ({@link DiskModel#FILE}) serves a tree of files over FUSE instead: a file's data is
 * durable at its fsync, and names as its {@link FileRules} say (a journaled filesystem's by default, POSIX's
 * floor by choice); a cut writes what survived into a plain directory. It needs no root. Every method below works on both; a
 * flush of the file model is a sync of a file or a directory.
 *
 * <p>The block model needs root, {@code /dev/fuse}, a free loop device ({@link NoFreeLoopDeviceException} otherwise), and
 * the filesystem's mkfs. What it models is a
 * drive's volatile cache under a real kernel filesystem: not firmware bugs; torn writes within a 4 KiB
 * sector only on a drive made to write a smaller unit atomically.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class SimulatedDisk implements AutoCloseable {

    private final Path work;
    /** The model this disk simulates. */
    private final DiskModel model;
    /** The disk as its drive is served: its work directory, its drive, what undoes it. */
    private final ServedDisk served;
    /** What the disk's model decides: how the disk is made, what a cut leaves, what a recording's states are. */
    private final ModelDisk perModel;
    private final DriveClient drive;
    /** The drive's faults as the disk's model places them. */
    private final DiskFaults faults;
    private final List<Path> survivors = new ArrayList<>();
    private final List<PowerCut> cuts = new ArrayList<>();
    private final DiskWorlds worlds = new DiskWorlds();
    private boolean cut;
    /** Run on the first survivor as its cut returns it (a {@link CorruptedBlocks} invocation's damage); or null. */
    private SurvivorHook onSurvivor;
    /** What was noted on this disk for the reports of a run: records acknowledged, damage done. */
    final DiskNotes notes = new DiskNotes();
    /** The drive's counts as acknowledgements are noted ({@link AcknowledgedRecords}). */
    final AckCounts ackCounts;
    private long armedAt = -1;
    private long armedSeed;

    /** The face of {@code served}, a disk {@code model} has made ({@link SimulatedDiskBuilder#create}). */
    SimulatedDisk(DiskModel model, ServedDisk served) {
        this.model = model;
        this.served = served;
        this.work = served.work();
        this.perModel = served.model();
        this.drive = served.drive();
        this.faults = new DiskFaults(model, perModel, drive);
        this.ackCounts = new AckCounts(this, drive);
    }

    /**
     * A disk configured option by option, the way {@link SimulatedPowerLoss} configures one:
     * {@code SimulatedDisk.builder().model(DiskModel.BLOCK).fs("xfs").sizeMiB(512).create(work)}. An option the
     * chosen model does not take is refused, not ignored ({@link SimulatedDiskBuilder}).
     */
    public static SimulatedDiskBuilder builder() {
        return new SimulatedDiskBuilder();
    }

    /** The size of a file model's disk made without a size ({@link SimulatedDiskBuilder#sizeMiB}): 1 GiB. */
    public static final long DEFAULT_FILES_BYTES = 1L << 30;

    /** fusermount3 or fuse 2's fusermount, which mounts the file model without root; null when neither is installed. */
    public static String fusermount() {
        return FuseMount.fusermount();
    }

    /**
     * The system property that sets the drives' server's maximum heap ({@code -Xmx}, e.g. {@code 64m});
     * unset, the JVM's default. The drives keep their bytes in files, so the heap holds only their indexes.
     */
    public static final String SERVER_HEAP_PROPERTY = ServedDisk.SERVER_HEAP_PROPERTY;

    /** The size of a drive for {@code fsType} when none is asked for: 512 MiB for xfs, 256 MiB otherwise. */
    public static long defaultSizeBytes(String fsType) {
        return Filesystems.defaultBytes(fsType);
    }

    /** The smallest drive {@code fsType}'s mkfs accepts: 300 MiB for xfs, 109 MiB for btrfs, 16 MiB otherwise. */
    public static long minimumSizeBytes(String fsType) {
        return Filesystems.minimumBytes(fsType);
    }

    /** Whether a drive may be made to write {@code bytes} atomically: 512, 1024, 2048 or 4096. */
    public static boolean validAtomicWriteBytes(int bytes) {
        return SectorStore.validAtomicUnit(bytes);
    }

    /**
     * The bytes the drive writes atomically: 4096, or 512 to 2048 where a cut may tear a sector; 1 for the
     * file model, where a cut keeps or loses each write whole.
     */
    public int atomicWriteBytes() {
        return perModel.atomicWriteBytes();
    }

    /** The model this disk simulates: {@link DiskModel#BLOCK} or {@link DiskModel#FILE}. */
    public DiskModel model() {
        return model;
    }

    /** The file model's rules; null on the block model. */
    public FileRules fileRules() {
        String word = perModel.rules();
        return word == null ? null : FileRules.of(word);
    }

    /** The filesystem on the drive; {@code files} for the file model. */
    public String fsType() {
        return perModel.fsType();
    }

    /** The loop device carrying the filesystem, like {@code /dev/loop3}; null after a cut. */
    public String loopDevice() {
        return cut ? null : perModel.loopDevice();
    }

    /**
     * True when the kernel reads and writes the drive with direct I/O (its {@code /sys/block/loopN/loop/dio}
     * is 1), as {@link SimulatedDiskBuilder#directIo(boolean)} asks; false after a cut.
     */
    public boolean directIo() {
        return !cut && perModel.directIo();
    }

    /** The PID of the drive's server process (for the file model, the one its disks share). */
    long serverPid() {
        return drive.pid();
    }

    /** The mounted filesystem. After a cut it is gone (the directory too), and writing there fails. */
    public Path path() {
        return perModel.path();
    }

    /** Flushes the drive has completed so far. */
    public long flushes() {
        return stats().flushes();
    }

    /** The drive's figures, now. */
    private DriveClient.Stats stats() {
        try {
            return drive.stats();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Makes the drive fail flushes with an I/O error while the power stays on: once {@code k} flushes
     * have completed (counted from the disk's creation; {@link #flushes()} says how many have), the next
     * flush fails, and with {@code persistent} every flush after it; without, the one after the failure
     * works again. A failed flush makes nothing durable. On the block model the filesystem above meets the
     * error as it would from a disk (ext4 returns EIO from the sync that waited for it, and aborts its
     * journal when a commit's flush fails); on the file model the sync that is the flush returns EIO.
     * {@link #cutPower()} afterwards shows what survived. The same as
     * {@code failFlushes(new FaultPlan(k, Errno.EIO, persistent))}.
     */
    public void failFlushesAfter(long k, boolean persistent) {
        failFlushes(new FaultPlan(k, Errno.EIO, persistent));
    }

    /**
     * Makes the drive fail flushes as {@code plan} says, with the power on; a later plan replaces it. The
     * drive answers a failed flush with the plan's errno; what the program's sync returns is the kernel's
     * doing: on the block model the loop device reports every failed flush to the filesystem as EIO, so the
     * program sees EIO (or, after ext4 aborted its journal, EROFS); on the file model FUSE passes the errno
     * to the fsync unchanged.
     */
    public void failFlushes(FaultPlan plan) {
        faults.failFlushes(plan);
    }

    /** Flushes the drive has failed so far ({@link #failFlushes}, {@link #failFlushesAfter}). */
    public long failedFlushes() {
        return stats().failedFlushes();
    }

    /**
     * Makes the drive get writes wrong with the power on, as {@code fault} says ({@link WriteFault}): fail them, lose
     * them, or write them elsewhere. On the block model the drive meets the loop device's writes to the file's bytes
     * (or its own) as the kernel writes the pages back, and a failure reaches the program at its fsync; on the file
     * model the write to the file meets it, and a failure is the {@code write} call's. A failed write changes nothing
     * on the drive; a lost or misdirected one is acknowledged, and so is the sync after it. On the file model a lost or
     * misdirected write may be planned on a file the workload has yet to make, by its name under {@link #path()}: it is
     * armed on the file at the first write it gets by that name, so a fault planned before the workload meets the
     * file's first write to the range.
     *
     * @throws IllegalArgumentException when the fault cannot be placed: a file with no bytes on the drive yet,
     *     btrfs, a drive range (or a misdirected write's drive target) on the file model, or on the block model a
     *     misdirected write's target file without bytes on the drive for the whole range
     */
    public void failWrites(WriteFault fault) {
        faults.failWrites(fault, path());
    }

    /** Writes the drive has failed so far ({@link #failWrites}, a {@link WriteFault.Kind#FAILED} fault). */
    public long failedWrites() {
        return stats().failedWrites();
    }

    /** Writes the drive has acknowledged and lost so far ({@link #failWrites}, a {@link WriteFault.Kind#LOST} fault). */
    public long lostWrites() {
        return faults.liedWrites().lost();
    }

    /**
     * Writes the drive has acknowledged and written elsewhere so far ({@link #failWrites}, a
     * {@link WriteFault.Kind#MISDIRECTED} fault).
     */
    public long misdirectedWrites() {
        return faults.liedWrites().misdirected();
    }

    /** The writes the drive acknowledged and did not make as asked, in words ({@link DiskFaults#liedWritesNote}). */
    String liedWritesNote() {
        return faults.liedWritesNote();
    }

    /**
     * Fails reads as {@code fault} says ({@link ReadFault}): a bad sector, which every read fails until a write covers
     * it, or a transient error, which fails the first read only. With the power on, a fault on a file syncs it first
     * (block model: a flush, counted by {@link #flushes()}) and drops its cached pages: a cached read cannot fail. After
     * a cut it is on what survived (a file of the survivor {@link #cutPower()} returned, or a drive range), which moves
     * onto a drive whose reads can fail: arm it before the survivor's files are opened, as {@code cutPower()} returns.
     *
     * @throws IllegalArgumentException when the fault cannot be placed ({@link ReadFault} says which bytes cannot)
     * @throws IllegalStateException after a cut, while files of the survivor are open
     */
    public void failReads(ReadFault fault) {
        faults.failReads(fault, cut ? survivors.get(survivors.size() - 1) : null);
    }

    /** Reads the drive has failed so far ({@link #failReads}). */
    public long failedReads() {
        return faults.failedReads();
    }

    /**
     * Changes data at rest as {@code fault} says ({@link DataFault}): a seeded bit flipped, or bytes zeroed, where they
     * lie on the drive, under the filesystem; returns what changed, in words a report can quote.
     *
     * <p>With the power on, a fault on a file under {@link #path()} syncs the file first (the fault is on synced data;
     * the sync is a flush, counted by {@link #flushes()}), then changes its bytes on the drive, both the durable ones
     * and those the drive reads now, so a cut later keeps the change; the file's clean cached pages are dropped, so its
     * next read reaches the drive, as {@link #failReads} drops them. On the block model the bytes are where FIEMAP
     * places them, on btrfs mapped onto the drive through its chunk tree (where a chunk has two copies, DUP, the first
     * changes, and btrfs repairs it from the second); on the file model they are the file's own.
     *
     * <p>After a cut, a fault on a file of the survivor {@link #cutPower()} returned changes the survivor, as a program
     * finds it after the reboot: on the block model the survivor's image, where the file's bytes lie in it (the
     * file's and the image device's cached pages dropped); on the file model the plain file itself, whose
     * modification time then changes too. A fault on the drive ({@link DataFault#bitRotOnDrive},
     * {@link DataFault#zeroedOnDrive}) changes the drive with the power on, its survivor's image after a cut, and drops
     * no file's pages: a file whose pages are cached reads them unchanged.
     *
     * @throws IllegalArgumentException when the file is neither on the disk with the power on nor on its survivor,
     *     the range holds none of its bytes, they have no place of their own on the drive (inline in btrfs's metadata,
     *     compressed, preallocated), on a survivor no write that survived the cut put them on the drive (never synced,
     *     a hole; on both models), or a drive range is asked of the file model
     * @throws IllegalStateException while a workload is recorded ({@link #recordCrashStates}), or when the power went
     *     at an armed flush and {@link #cutPower()} has not made its survivor yet
     */
    public Corruption corrupt(DataFault fault) {
        Path survivor = survivors.isEmpty() ? null : survivors.get(survivors.size() - 1);
        Corruption done = faults.corrupt(fault, cut ? null : path(), survivor);
        notes.noteDamage(done.toString());
        return done;
    }

    /** Bytes written since the last flush: what a cut now would discard. */
    public long unflushedBytes() {
        return stats().unflushedBytes();
    }

    /** Cuts the power, keeping what the last flush made durable; returns where the survivor is mounted. */
    public Path cutPower() {
        return cut(PowerLossModel.CutMode.FLUSHED, null);
    }

    /** The flush at which an armed cut happens ({@link #cutAfterFlushes}), or -1 when none is armed. */
    public long armedAt() {
        return armedAt;
    }

    /** Cuts the power, keeping also a random subset of the unflushed sectors, drawn from {@code seed}. */
    public Path cutPower(long seed) {
        return cut(PowerLossModel.CutMode.SUBSET, seed);
    }

    /**
     * Arms a cut at the {@code k}-th flush the drive completes, counted from its creation ({@link #flushes()}
     * tells how many have happened): the power goes the moment that flush completes, and the workload runs
     * on against a drive that discards its writes and fails every later sync (so it acknowledges nothing
     * that no longer reaches the drive). {@link #cutPower()} then mounts what survived. Sweeping
     * {@code k} over a workload's flushes tests every crash point of it.
     */
    public void cutAfterFlushes(long k) {
        arm(k, 0);
    }

    /**
     * As {@link #cutAfterFlushes(long)}, and the program whose process group is {@code processGroup} dies
     * with the power: the drive sends the group SIGKILL at the cut, before it reports the k-th flush done.
     * A program on the disk thus never sees that flush complete, and acknowledges nothing after the cut.
     */
    public void cutAfterFlushes(long k, long processGroup) {
        if (processGroup <= 1) {
            throw new IllegalArgumentException("a process group is a PID above 1, not " + processGroup);
        }
        arm(k, processGroup);
    }

    private void arm(long k, long processGroup) {
        try {
            drive.armAfter(k, processGroup);
        } catch (DriveClient.Refused r) {
            throw new IllegalArgumentException(r.reason());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        armedAt = k;
    }

    /**
     * Arms a cut as the drive's {@code k}-th flush arrives (counted from its creation), before the drive
     * carries it out: what the flush before made durable survives, with a subset of the sectors written
     * since drawn from {@code seed} (a drive may have written any of them when its power went), and the
     * sync waiting for that flush fails. {@link #cutPower()} then mounts what survived. With
     * {@link #cutAfterFlushes(long)}, this sweeps the points between a workload's flushes.
     */
    public void cutDuringFlush(long k, long seed) {
        try {
            drive.armDuring(k, seed);
        } catch (DriveClient.Refused r) {
            throw new IllegalArgumentException(r.reason());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        armedAt = k;
        armedSeed = seed;
    }

    /**
     * Starts {@code builder}'s command in a {@link ProcessWorld} of its own that dies with this drive's
     * power: at a cut, however it comes ({@link #cutPower()}, an armed flush), every process of the world
     * gets SIGKILL before anything else happens (before an armed flush is reported done), and
     * {@link #cutPower()} returns only once each of them is reaped. So a test can cut the power under a
     * server it started, daemons and session leaders included, and start it again on what survived with
     * nothing of the old one alive. A world started after the cut is killed at once. Worlds still running
     * when the disk closes are killed first.
     *
     * <pre>{@code
     * try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(256).create(work)) {
     *     ProcessWorld server = disk.start(new ProcessBuilder("postgres", "-D", disk.path() + "/data"));
     *     // ... commit through a client in this JVM, noting what was acknowledged ...
     *     Path survivor = disk.cutPower(seed);          // the server is dead and reaped here
     *     try (ProcessWorld again = ProcessWorld.start(new ProcessBuilder("postgres", "-D", survivor + "/data"))) {
     *         // ... check that everything acknowledged is there ...
     *     }
     * }
     * }</pre>
     *
     * @throws IllegalStateException once the disk is closed
     */
    public ProcessWorld start(ProcessBuilder builder) throws IOException {
        ProcessWorld world = ProcessWorld.held(builder);
        try {
            // Told before the program runs a line, so that no cut can come between its start and the drive's knowing.
            try {
                drive.world(world.pid());
            } catch (DriveClient.Refused r) {
                throw new IOException("the simulated drive could not take the world of " + builder.command() + ": "
                        + r.reply());
            }
            worlds.add(world);
            world.release();
            return world;
        } catch (IOException | RuntimeException e) {
            world.kill();
            throw e;
        }
    }

    /** A test's workload, given the records it acknowledges ({@link #untilPowerCut}). */
    @FunctionalInterface
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public interface Workload {
        /** Runs the workload on {@link #path()}, noting in {@code acknowledged} what it acknowledges. */
        void run(AcknowledgedRecords acknowledged) throws Exception;
    }

    /**
     * Runs {@code workload} until it ends or the power goes, as a program dies with its machine: once an
     * armed cut ({@link #cutAfterFlushes}, {@link #cutDuringFlush}, {@link RepeatedPowerCut}) has happened,
     * nothing the workload does counts. What it acknowledges then is kept apart
     * ({@link AcknowledgedRecords#afterPowerCut()}), and what it throws then (a library's error path after
     * its sync failed) ends it without failing the test ({@link AcknowledgedRecords#thrownAfterPowerCut()}).
     * What it throws with the power on is rethrown. The test then calls {@link #cutPower()} and checks what
     * survived, as usual:
     *
     * <pre>{@code
     * AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
     *     try (Store store = Store.open(disk.path())) {
     *         for (String r : records) {
     *             store.put(r);                 // returns once synced
     *             acknowledged.add(r);
     *         }
     *     }
     * });
     * acks.assertDurable(Store.readAll(disk.cutPower()));
     * }</pre>
     *
     * @return the records the workload acknowledged, those before the power went counted
     */
    public AcknowledgedRecords untilPowerCut(Workload workload) throws Exception {
        AcknowledgedRecords acknowledged = AcknowledgedRecords.on(this);
        try {
            workload.run(acknowledged);
            acknowledged.settle();
        } catch (Exception | Error e) {
            acknowledged.settleAfter(e);
            boolean on;
            try {
                on = powered();
            } catch (RuntimeException dead) {
                e.addSuppressed(dead); // the drive's server is gone: the workload's own error comes first
                throw e;
            }
            if (on) {
                throw e;
            }
            acknowledged.thrownAfterPowerCut(e);
        }
        return acknowledged;
    }

    /**
     * Runs {@code workload} once with the power on while the drive records every write and flush it
     * receives, and returns the crash states of that run, to be checked each on a real filesystem
     * ({@link CrashStates#check}). The filesystem is synced first: the recording starts from a durable
     * image. On the file model the tree records its operations instead (names, writes, truncations, permission
     * bits, syncs), everything in it made durable first, and its states are written out as plain directories:
     * no root, no mount.
     *
     * <pre>{@code
     * CrashStates states = disk.recordCrashStates(acknowledged -> {
     *     store.put("a");                       // returns once synced
     *     acknowledged.add("a");
     * });
     * states.check(200, (survivor, mustSurvive) ->
     *         assertThat(Store.readAll(survivor)).containsAll(mustSurvive)).assertPassed();
     * }</pre>
     */
    public CrashStates recordCrashStates(Workload workload) throws Exception {
        if (cut) {
            throw new IllegalStateException("the power is already cut");
        }
        // Owner only: the recording is the workload's data, and its states are checked in here.
        Path dir = OwnerOnly.directory(work, "crash-states-");
        Path log = dir.resolve("recording.log");
        try {
            perModel.startRecording(dir, log);
        } catch (DriveClient.Refused r) {
            throw new IOException("the simulated drive did not start recording: " + r.reply());
        }
        AcknowledgedRecords acknowledged;
        try {
            acknowledged = untilPowerCut(workload);
        } catch (Exception | Error e) {
            try {
                drive.stopRecording();
            } catch (IOException | RuntimeException stop) {
                e.addSuppressed(stop); // the workload's own failure comes first
            }
            throw e;
        }
        try {
            drive.stopRecording();
        } catch (DriveClient.Refused r) {
            throw new IOException("the simulated drive did not stop recording: " + r.reply());
        }
        CrashStates states = new CrashStates(model, perModel.crashStates(dir, log, this::powered), acknowledged, null);
        served.onClose(() -> {
            try {
                states.close();
            } catch (IOException e) {
                // a file read only: closing it loses nothing
            }
        });
        return states;
    }

    /** What is done to the first survivor before its cut returns it. */
    interface SurvivorHook {
        void survived(Path survivor) throws IOException;
    }

    void onSurvivor(SurvivorHook hook) {
        onSurvivor = hook;
    }

    /** True until the power is cut (by a call, or at an armed flush). */
    public boolean powered() {
        if (cut) {
            return false;
        }
        try {
            return drive.powered();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The cuts made so far, first first. */
    public List<PowerCut> cuts() {
        return List.copyOf(cuts);
    }

    private Path cut(PowerLossModel.CutMode mode, Long seed) {
        if (cut) {
            throw new IllegalStateException("the power is already cut");
        }
        try {
            DriveClient.Cut c;
            try {
                c = drive.cut(mode, seed == null ? 0 : seed);
            } catch (DriveClient.Refused r) {
                throw new IOException("the simulated drive did not cut: " + r.reply());
            }
            cut = true;
            // An armed cut reports itself, whatever was asked now.
            long at = c.atFlush();
            boolean armed = c.armed();
            // Armed during flush k, the drive stopped after flush k - 1; armed after flush k, at k.
            Long cutSeed = !armed ? seed : at + 1 == armedAt ? Long.valueOf(armedSeed) : null;
            List<String> discardedOps = c.lost();
            String lost = c.note();
            long unflushed = (c.kept() + c.discarded()) * perModel.atomicWriteBytes();
            long keptBytes = c.kept() * perModel.atomicWriteBytes();
            // The drive killed them as it froze; nothing of them may hold the mount or answer for a PID now.
            worlds.killAll();
            // Counted before its survivor is made, so that a cut whose survivor cannot be made is still counted.
            cuts.add(new PowerCut(cutSeed, at, unflushed, keptBytes, armed, lost, perModel.discardedBeforeSurvivor(discardedOps)));
            ModelDisk.Survivor survivor = perModel.survive(discardedOps, survivors.size());
            cuts.set(cuts.size() - 1, new PowerCut(cutSeed, at, unflushed, keptBytes, armed, lost, survivor.discarded()));
            survivors.add(survivor.path());
            if (onSurvivor != null && survivors.size() == 1) {
                onSurvivor.survived(survivor.path());
            }
            return survivor.path();
        } catch (LoopsExhaustedException e) {
            throw new UncheckedIOException(NoFreeLoopDeviceException.of(e));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Kills the worlds still running, then unmounts, detaches and stops everything, last made first, and
     * removes the work directory. What cannot be removed (a mount the kernel keeps) does not hide what the
     * disk showed: it is named on stderr, and the directory keeps the markers by which the next disk made
     * beside it removes it.
     */
    @Override
    public void close() {
        worlds.killAll();
        served.close();
    }
}

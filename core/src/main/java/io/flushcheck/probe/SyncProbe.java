package io.flushcheck.probe;

import com.sun.jna.Memory;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * Runs the sync loops of a {@link ProbePlan} in one directory. Each mode gets its own probe file,
 * created exclusively (mode 0600, never through a symlink) inside the directory and removed when
 * the mode ends, whatever happens: {@link OwnFiles} keeps the rules.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SyncProbe {

    /** The overwrite file never grows past this, whatever the rounds: it wraps around instead. */
    static final long MAX_OVERWRITE_FILE = 64L << 20;
    /** The syncing stretch between two idle windows: long enough to hold rounds, short enough to interleave. */
    static final long STRETCH_NANOS = 10_000_000L;
    /**
     * The rounds at the start of a stretch that follows an idle window left out of the latencies (see
     * {@link #measure}); a stretch keeps at least its last round.
     */
    static final int LEFT_OUT_AFTER_WINDOW = 2;

    /** Rounds of a mode's warm-up ({@link #warmUp}), in loops of {@link #WARM_UP_LOOP} rounds. */
    static final int WARM_UP_ROUNDS = 10_000;
    static final int WARM_UP_LOOP = 2_500;
    /**
     * The fewest rounds a mode warms up for: HotSpot's optimizing compiler takes a method once it has been called
     * about 5,000 times ({@code -XX:Tier4InvocationThreshold}), so a mode of fewer rounds does not have its loop's
     * calls compiled by it while its rounds run, and the warm-up would cost more than it saves.
     */
    static final int WARM_UP_FROM_ROUNDS = 5_000;
    /** The modes this JVM's native probes have warmed up: once is enough, the compiled code stays. */
    private static final Set<SyncMode> WARMED_IN_THIS_JVM = ConcurrentHashMap.newKeySet();

    private final SyncCalls calls;
    private final DeviceCounters counters;
    private final Set<SyncMode> warmed;

    private SyncProbe(SyncCalls calls, DeviceCounters counters, Set<SyncMode> warmed) {
        this.calls = calls;
        this.counters = counters;
        this.warmed = warmed;
    }

    /**
     * A probe with the native calls of this platform, watching the devices of {@code facts}
     * (none when facts is null).
     *
     * @throws UnsupportedOperationException when native calls are not available here, with the reason
     */
    public static SyncProbe forStorage(StorageFacts facts, StorageInspector inspector) {
        return new SyncProbe(NativeSyncCalls.load(), DeviceCounters.of(facts, inspector), WARMED_IN_THIS_JVM);
    }

    /** A probe with other calls (a test's, a bench's): it warms each mode up once, whatever other probes did. */
    static SyncProbe with(SyncCalls calls, StorageFacts facts, StorageInspector inspector) {
        return new SyncProbe(calls, DeviceCounters.of(facts, inspector), ConcurrentHashMap.newKeySet());
    }

    /**
     * Runs every mode of the plan in {@code dir} (an existing, resolved directory).
     *
     * @throws NativeCallException when a file cannot be created or written (read-only, full, no permission)
     */
    public List<SyncCost> run(Path dir, ProbePlan plan, ProbeListener listener) {
        try (ProbeDirectory opened = open(dir)) {
            return run(opened, plan, listener);
        }
    }

    /**
     * Opens the directory the probe is to write in, once: its files are made relative to it ({@link ProbeDirectory}).
     *
     * @throws NativeCallException when it cannot be opened
     */
    public ProbeDirectory open(Path dir) {
        return ProbeDirectory.open(calls, dir);
    }

    /** {@link #run(Path, ProbePlan, ProbeListener)} in a directory already opened. */
    public List<SyncCost> run(ProbeDirectory dir, ProbePlan plan, ProbeListener listener) {
        List<SyncCost> out = new ArrayList<>();
        run(dir, plan, listener, out::add);
        return out;
    }

    /**
     * Runs every mode of the plan, handing each cost over as soon as its mode ends, so that a failure
     * in a later mode (the disk filling up) loses nothing already measured.
     *
     * @throws NativeCallException when a file cannot be created or written (read-only, full, no permission)
     */
    public void run(Path dir, ProbePlan plan, ProbeListener listener, Consumer<SyncCost> finished) {
        try (ProbeDirectory opened = open(dir)) {
            run(opened, plan, listener, finished);
        }
    }

    /** {@link #run(Path, ProbePlan, ProbeListener, Consumer)} in a directory already opened. */
    public void run(ProbeDirectory dir, ProbePlan plan, ProbeListener listener, Consumer<SyncCost> finished) {
        run(dir, plan, listener, finished, null);
    }

    /**
     * As {@link #run(ProbeDirectory, ProbePlan, ProbeListener, Consumer)}, ending each mode as soon as {@code stop}
     * finds it decided (null: every mode runs all its rounds); the cost then holds the rounds that ran.
     */
    public void run(ProbeDirectory dir, ProbePlan plan, ProbeListener listener, Consumer<SyncCost> finished, StopRule stop) {
        for (SyncMode mode : plan.modes()) {
            finished.accept(runMode(dir, mode, plan, listener, stop));
        }
    }

    private SyncCost runMode(ProbeDirectory dir, SyncMode mode, ProbePlan plan, ProbeListener listener, StopRule stop) {
        Path file = OwnFiles.probeName(dir.path(), mode.id());
        try (Memory buffer = new Memory(plan.blockSize())) {
            calls.fill(buffer, plan.blockSize());
            if (mode == SyncMode.JAVA_FORCE) {
                return javaForce(dir, file, plan, listener);
            }
            warmUp(mode, plan);
            int fd = createOwn(dir, file, mode == SyncMode.DSYNC);
            try {
                if (!hasControl(mode) || counters.isEmpty()) {
                    return loop(fd, -1, buffer, mode, plan, listener, stop);
                }
                Path controlFile = OwnFiles.probeName(dir.path(), mode.id() + "-control");
                int control = createOwn(dir, controlFile, false);
                try {
                    return loop(fd, control, buffer, mode, plan, listener, stop);
                } finally {
                    closeAndRemove(dir, control, controlFile);
                }
            } finally {
                closeAndRemove(dir, fd, file);
            }
        }
    }

    /**
     * Creates a file of flushcheck's own, exclusively. Registered before it exists, so a shutdown at any
     * instant finds it; settled as ours only once created: a file that was already there (EEXIST) is never
     * removed.
     */
    private int createOwn(ProbeDirectory dir, Path file, boolean dsync) {
        OwnFiles.reserve(file);
        boolean created = false;
        try {
            int fd = dir.create(file, dsync);
            created = true;
            return fd;
        } finally {
            OwnFiles.settle(file, created);
        }
    }

    private void closeAndRemove(ProbeDirectory dir, int fd, Path file) {
        try {
            calls.close(fd);
        } finally {
            OwnFiles.remove(file, dir);
        }
    }

    /**
     * Runs the mode's loop, the very code its rounds run ({@link #loop}: the same calls, brackets and idle windows),
     * on files that reach no disk ({@link SyncCalls#scratchFile}: a sync there costs the call only), so that the JIT
     * compiles the calls of a round before the measured rounds instead of while they run: on a machine of few cores
     * the compilers then take the CPU from the rounds (a JVM running etcd's check compiled for about 0.4 s during its
     * rounds, and the first tenth of them had a p99 three times the rest's; seen with -XX:+PrintCompilation and
     * {@code cli/bench/ProbeRounds.java}). {@link #WARM_UP_ROUNDS} calls each: enough for HotSpot's optimizing
     * tier, and for its compiles to end before the warm-up does. The loops are as long as a few stretches, so that
     * their stretches end by time as the measured rounds' do: the code compiled for the warm-up is the code the
     * rounds need, not one the JIT must throw away when their first stretch ends differently. The measuring method
     * itself, called once a loop, stays interpreted in the warm-up and in the rounds alike; what a round calls (the
     * steps, the native calls, the brackets) is compiled by the optimizing tier before the first measured round, and
     * what the rounds compile is what runs once a stretch (the device counters' reading). Their blocks are the
     * smallest a plan allows (the calls are the same whatever the size), and each loop has files of its own, closed
     * at its end, so that the warm-up holds a megabyte or two of memory. Once per mode in a JVM; only for a mode of
     * at least {@link #WARM_UP_FROM_ROUNDS} rounds; nothing where there are no such files (macOS). What it costs is
     * mostly the compiling that would otherwise delay the rounds ({@code cli/bench/sync-figures.sh -d} prints both).
     */
    private void warmUp(SyncMode mode, ProbePlan plan) {
        if (plan.rounds() < WARM_UP_FROM_ROUNDS || warmed.contains(mode)) {
            return;
        }
        ProbePlan warm = new ProbePlan(List.of(mode), ProbePlan.MIN_BLOCK, WARM_UP_LOOP, false, 0, plan.preallocate());
        try (Memory buffer = new Memory(ProbePlan.MIN_BLOCK)) {
            calls.fill(buffer, ProbePlan.MIN_BLOCK);
            for (int done = 0; done < WARM_UP_ROUNDS; done += WARM_UP_LOOP) {
                int fd = calls.scratchFile();
                if (fd < 0) {
                    return;
                }
                int control = hasControl(mode) && !counters.isEmpty() ? calls.scratchFile() : -1;
                try {
                    loop(fd, control, buffer, mode, warm, ProbeListener.NONE, null);
                } finally {
                    try {
                        calls.close(fd);
                    } finally {
                        if (control >= 0) {
                            calls.close(control);
                        }
                    }
                }
            }
        }
        warmed.add(mode);
    }

    /**
     * Modes whose rounds write: where counters are read, their idle windows make the same writes, unsynced,
     * to a control file.
     */
    private static boolean hasControl(SyncMode mode) {
        return mode.syncs() && mode != SyncMode.FLUSH_ONLY;
    }

    private SyncCost loop(int fd, int control, Memory buffer, SyncMode mode, ProbePlan plan, ProbeListener listener,
                          StopRule stop) {
        int bs = plan.blockSize();
        long slots = 1;
        if (mode == SyncMode.OVERWRITE_FDATASYNC || mode == SyncMode.FULL_FSYNC || mode == SyncMode.BARRIER_FSYNC) {
            // Preallocate and sync first, so the rounds change no size and no allocation: fdatasync(2) then has
            // no metadata to flush, only the data.
            slots = Math.max(1, Math.min(plan.rounds(), MAX_OVERWRITE_FILE / bs));
            for (long i = 0; i < slots; i++) {
                calls.pwrite(fd, buffer, bs, i * bs);
            }
            calls.fsync(fd);
        } else if (mode == SyncMode.FLUSH_ONLY) {
            calls.pwrite(fd, buffer, bs, 0);
            calls.fsync(fd);
        } else if (plan.preallocate()) {
            // fio's layout for --rw=write: the whole file allocated up front (its extents not yet written), then
            // written from its start. Nothing is synced first: fio does not sync its layout either.
            calls.preallocate(fd, plan.layoutBytes());
        }
        // The write and the sync of a round are timed apart as well as together: fio reports the sync's
        // latency alone, and etcd's guidance gates on it. A mode whose write is its sync (O_DSYNC) or
        // that does not sync has one step only.
        Round round = switch (mode) {
            case APPEND_FSYNC -> Round.of(i -> calls.write(fd, buffer, bs), i -> calls.fsync(fd));
            case APPEND_FDATASYNC -> Round.of(i -> calls.write(fd, buffer, bs), i -> calls.fdatasync(fd));
            case DSYNC, NO_SYNC -> Round.writeOnly(i -> calls.write(fd, buffer, bs));
            case FLUSH_ONLY -> Round.syncOnly(i -> calls.fdatasync(fd));
            case OVERWRITE_FDATASYNC -> overwrite(fd, buffer, bs, slots, calls::fdatasync);
            case FULL_FSYNC -> overwrite(fd, buffer, bs, slots, calls::fullFsync);
            case BARRIER_FSYNC -> overwrite(fd, buffer, bs, slots, calls::barrierFsync);
            case JAVA_FORCE -> throw new IllegalStateException("java-force runs through FileChannel");
        };
        long controlSlots = slots;
        Step unsynced = control < 0 ? null : switch (mode) {
            case OVERWRITE_FDATASYNC, FULL_FSYNC, BARRIER_FSYNC -> i -> calls.pwrite(control, buffer, bs, (i % controlSlots) * bs);
            default -> i -> calls.write(control, buffer, bs);
        };
        return measure(mode, plan, round, unsynced, listener, stop);
    }

    private Round overwrite(int fd, Memory buffer, int bs, long slots, java.util.function.IntConsumer sync) {
        return Round.of(i -> calls.pwrite(fd, buffer, bs, (i % slots) * bs), i -> sync.accept(fd));
    }

    private SyncCost javaForce(ProbeDirectory dir, Path file, ProbePlan plan, ProbeListener listener) {
        ByteBuffer buf = ByteBuffer.allocateDirect(plan.blockSize());
        byte[] pattern = new byte[plan.blockSize()];
        Arrays.fill(pattern, (byte) 0x5A);
        buf.put(pattern).flip();
        FileChannel opened = dir.held() ? javaChannelAt(dir, file) : javaChannelByPath(file);
        try (FileChannel ch = opened) {
            return measure(SyncMode.JAVA_FORCE, plan, Round.of(i -> {
                buf.rewind();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }, i -> ch.force(true)), listener);
        } catch (IOException e) {
            throw new NativeCallException("java-force on " + file, 0, describe(e));
        } finally {
            OwnFiles.remove(file, dir);
        }
    }

    /**
     * Java's own channel on a file created in the directory held open: Java cannot open relative to a descriptor,
     * so the file is created there natively and Java reopens it through /proc/self/fd, which reaches that very
     * file whatever became of the directory's name. Java's force then syncs it as it syncs any channel of its own.
     */
    private FileChannel javaChannelAt(ProbeDirectory dir, Path file) {
        int fd = createOwn(dir, file, false);
        try {
            return FileChannel.open(Path.of("/proc/self/fd/" + fd), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            OwnFiles.remove(file, dir);
            throw new NativeCallException("java-force: open(" + file + ")", 0, describe(e));
        } finally {
            calls.close(fd);
        }
    }

    private FileChannel javaChannelByPath(Path file) {
        FileChannel opened = null;
        OwnFiles.reserve(file);
        try {
            opened = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND, java.nio.file.LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (IOException e) {
            throw new NativeCallException("java-force: open(" + file + ")", 0, describe(e));
        } finally {
            OwnFiles.settle(file, opened != null);
        }
        return opened;
    }

    /** Java reports no errno; its exception names the condition ("Read-only file system"). */
    private static String describe(IOException e) {
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + e.getMessage() : "");
    }

    /** One step of a round: its write or its sync. */
    @FunctionalInterface
    private interface Step {
        void run(int index) throws IOException;
    }

    /**
     * A round: a write, then a sync. Either may be null where the mode has no such step of its own
     * (an O_DSYNC write syncs inside the write; flush-only writes nothing), and then it is not timed apart.
     */
    private record Round(Step write, Step sync) {
        static Round of(Step write, Step sync) {
            return new Round(write, sync);
        }

        static Round writeOnly(Step write) {
            return new Round(write, null);
        }

        static Round syncOnly(Step sync) {
            return new Round(null, sync);
        }

        /** Both steps are there: the write and the sync are worth reporting apart. */
        boolean split() {
            return write != null && sync != null;
        }
    }

    private SyncCost measure(SyncMode mode, ProbePlan plan, Round round, ProbeListener listener) {
        return measure(mode, plan, round, null, listener, null);
    }

    /**
     * Runs the rounds in stretches of about {@link #STRETCH_NANOS}, each followed by an idle window in
     * which no sync of flushcheck's runs: what the devices do then is other processes' work, and their
     * rate there is taken off the flushes counted while syncing ({@link DeviceDelta#flushesCaused}).
     * Where the rounds write, the window makes the same writes without syncing them ({@code unsynced},
     * to a control file, as many as the stretch made in proportion to the window's length): writes
     * alone can make a busy device flush more (others' journal commits take them along), and only
     * what the syncs add to that is theirs. A window lasts a quarter of its stretch while the windows
     * see no flush, and as long as its stretch once one has: a busy device is sampled as long as it is
     * measured.
     *
     * <p>Each sync is also bracketed ({@link FlushBrackets}): how many flushes got all the way down the
     * chain (every level, the bottom's disks together) while it ran. The rest of each idle window is spent in idle brackets as long as the stretch's
     * syncs, one after another: how often other work alone meets a bracket of that length.
     *
     * <p>The first {@link #LEFT_OUT_AFTER_WINDOW} rounds after each idle window count for the verdict like any
     * other but are left out of the latencies ({@link SyncCost#latencyRounds()}), unless the stretch has no other:
     * a sync after a pause takes longer than one in a loop that does not pause, as fio's and etcd's do not. On the
     * virtio disk where it was measured, the first took 2.5 to 4 times the median of the later rounds and the second
     * 1.2 to 1.7 times, with tails 4 to 8 times theirs where each fdatasync commits the journal; a C loop's as much
     * as the probe's, whether it spins or sleeps through the pause ({@code cli/bench/sync-figures.sh -d} shows the
     * rounds by their place in their stretch). One such pair every 10 ms is about 2% of the rounds of a fast disk:
     * a p99 made of them.
     */
    private SyncCost measure(SyncMode mode, ProbePlan plan, Round round, Step unsynced, ProbeListener listener, StopRule stop) {
        FlushBrackets brackets = !counters.isEmpty() && mode.syncs() ? counters.brackets() : null;
        try {
            return measure(mode, plan, round, unsynced, listener, brackets, stop);
        } finally {
            if (brackets != null) {
                brackets.close();
            }
        }
    }

    private SyncCost measure(SyncMode mode, ProbePlan plan, Round round, Step unsynced, ProbeListener listener,
                             FlushBrackets brackets, StopRule stop) {
        int rounds = plan.rounds();
        long[] nanos = new long[rounds];
        boolean split = round.split();
        long[] writeNanos = split ? new long[rounds] : null;
        long[] syncNanos = split ? new long[rounds] : null;
        Step write = round.write();
        Step sync = round.sync();
        boolean perRound = plan.perRoundCounters() && !counters.isEmpty();
        boolean idleWindows = !counters.isEmpty() && mode.syncs();
        long[] roundFlushes = perRound ? new long[rounds] : null;
        long[] roundKib = perRound ? new long[rounds] : null;
        // Often enough for a bar on a terminal to move; a listener that prints throttles itself.
        int step = Math.max(1, Math.min(100, rounds / 20));
        listener.progress(mode, 0, rounds);
        DeviceStat[] mark = counters.read();
        DeviceStat[] syncing = null;
        DeviceStat[] idle = null;
        long loopNanos = 0;
        long idleNanos = 0;
        boolean busy = false;
        long[] syncBracket = brackets == null ? null : new long[rounds];
        // The rounds right after an idle window, left out of the latencies (see above).
        boolean[] afterWindow = idleWindows ? new boolean[rounds] : null;
        long[] before = brackets == null ? null : brackets.newReading();
        long[] after = brackets == null ? null : brackets.newReading();
        boolean bracketsRead = brackets != null;
        int[] syncsMeeting = new int[FlushBrackets.Tally.DEPTH];
        int controls = 0;
        int[] controlsMeeting = new int[FlushBrackets.Tally.DEPTH];
        int ran = rounds;
        try {
            int i = 0;
            int controlIndex = 0;
            while (i < rounds) {
                int stretchFirst = i;
                long stretchStart = System.nanoTime();
                do {
                    DeviceStat[] b = perRound ? counters.read() : null;
                    long t0 = System.nanoTime();
                    if (split) {
                        write.run(i);
                        long t1 = System.nanoTime();
                        bracketsRead &= brackets == null || brackets.read(before);
                        long s0 = System.nanoTime();
                        sync.run(i);
                        long t2 = System.nanoTime();
                        bracketsRead &= brackets == null || brackets.read(after);
                        // The bracket's readings are left out of the round's times.
                        writeNanos[i] = t1 - t0;
                        syncNanos[i] = t2 - s0;
                        nanos[i] = writeNanos[i] + syncNanos[i];
                        if (brackets != null) {
                            syncBracket[i] = syncNanos[i];
                        }
                    } else {
                        bracketsRead &= brackets == null || brackets.read(before);
                        long s0 = System.nanoTime();
                        (write != null ? write : sync).run(i);
                        long t1 = System.nanoTime();
                        bracketsRead &= brackets == null || brackets.read(after);
                        nanos[i] = t1 - s0;
                        if (brackets != null) {
                            syncBracket[i] = nanos[i];
                        }
                    }
                    if (brackets != null) {
                        FlushBrackets.Tally.count(brackets.flushesDown(before, after), syncsMeeting);
                    }
                    if (perRound) {
                        long[] d = counters.terminalDelta(b, counters.read());
                        roundFlushes[i] = d[0];
                        roundKib[i] = d[1];
                    }
                    if ((i + 1) % step == 0 && i + 1 < rounds) {
                        listener.progress(mode, i + 1, rounds);
                    }
                    i++;
                } while (i < rounds && System.nanoTime() - stretchStart < STRETCH_NANOS);
                if (afterWindow != null && stretchFirst > 0) {
                    // After a window: its first rounds, but never all of them (a round of 10 ms or more is a stretch
                    // of its own, and every such round follows a window).
                    int leftOut = Math.min(LEFT_OUT_AFTER_WINDOW, i - stretchFirst - 1);
                    Arrays.fill(afterWindow, stretchFirst, stretchFirst + leftOut, true);
                }
                long stretch = System.nanoTime() - stretchStart;
                loopNanos += stretch;
                DeviceStat[] stretchEnd = counters.read();
                syncing = counters.add(syncing, mark, stretchEnd);
                mark = stretchEnd;
                if (idleWindows) {
                    long idleStart = System.nanoTime();
                    long want = busy ? stretch : stretch / 4;
                    int made = i - stretchFirst;
                    int writes = unsynced == null ? 0 : busy ? made : (made + 3) / 4;
                    for (int w = 0; w < writes && System.nanoTime() - idleStart < want; w++) {
                        unsynced.run(controlIndex++);
                    }
                    if (brackets != null) {
                        // Idle brackets as long as this stretch's syncs, in turn, while the window lasts.
                        for (int k = stretchFirst; bracketsRead; k = k + 1 < i ? k + 1 : stretchFirst) {
                            long length = syncBracket[k];
                            if (want - (System.nanoTime() - idleStart) < length) {
                                break;
                            }
                            bracketsRead &= brackets.read(before);
                            spin(length);
                            bracketsRead &= brackets.read(after);
                            controls++;
                            FlushBrackets.Tally.count(brackets.flushesDown(before, after), controlsMeeting);
                        }
                    }
                    for (long left = want - (System.nanoTime() - idleStart); left > 0;
                            left = want - (System.nanoTime() - idleStart)) {
                        LockSupport.parkNanos(left);
                    }
                    DeviceStat[] idleEnd = counters.read();
                    idleNanos += System.nanoTime() - idleStart;
                    busy |= counters.anyFlush(mark, idleEnd);
                    idle = counters.add(idle, mark, idleEnd);
                    mark = idleEnd;
                    // Looked at only once the window has sampled other work: the brackets' rule needs it.
                    if (stop != null && i < rounds && bracketsRead && stop.decided(cost(mode, plan, i, nanos, writeNanos,
                            syncNanos, afterWindow, roundFlushes, roundKib, loopNanos, idleNanos, syncing, idle,
                            FlushBrackets.Tally.of(i, syncsMeeting, controls, controlsMeeting)), rounds)) {
                        ran = i;
                        break;
                    }
                }
            }
        } catch (IOException e) {
            throw new NativeCallException(mode.id(), 0, describe(e));
        }
        listener.progress(mode, rounds, rounds);
        FlushBrackets.Tally tally = brackets != null && bracketsRead && idleWindows
                ? FlushBrackets.Tally.of(ran, syncsMeeting, controls, controlsMeeting) : null;
        return cost(mode, plan, ran, nanos, writeNanos, syncNanos, afterWindow, roundFlushes, roundKib, loopNanos, idleNanos,
                syncing, idle, tally);
    }

    /**
     * Spins for {@code nanos}: an idle bracket as long as a sync. Its own method, so that the JIT compiles these few
     * bytes on their own once the spinning makes them hot, rather than the whole of {@code measure} while its rounds
     * run (on two cores, compiling competes with the rounds for the CPUs).
     */
    private static void spin(long nanos) {
        long c0 = System.nanoTime();
        while (System.nanoTime() - c0 < nanos) {
            Thread.onSpinWait();
        }
    }

    /**
     * The cost of the first {@code rounds} rounds measured; its latencies, slowest rounds and median round of
     * those not marked in {@code afterWindow} (null: of all of them).
     */
    private SyncCost cost(SyncMode mode, ProbePlan plan, int rounds, long[] allNanos, long[] allWriteNanos,
                          long[] allSyncNanos, boolean[] afterWindow, long[] allRoundFlushes, long[] allRoundKib,
                          long loopNanos, long idleNanos, DeviceStat[] syncing, DeviceStat[] idle, FlushBrackets.Tally tally) {
        int[] kept = kept(rounds, afterWindow);
        long[] nanos = pick(allNanos, kept);
        boolean split = allWriteNanos != null;

        LatencyDistribution h = LatencyDistribution.ofNanos(nanos);
        Integer[] order = new Integer[kept.length];
        for (int k = 0; k < kept.length; k++) {
            order[k] = kept[k];
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> allNanos[i]).reversed());
        List<SlowRound> slowest = new ArrayList<>();
        for (int k = 0; k < Math.min(plan.slowRounds(), order.length); k++) {
            slowest.add(slowRound(order[k], allNanos, allRoundFlushes, allRoundKib));
        }
        SlowRound median = slowRound(order[order.length / 2], allNanos, allRoundFlushes, allRoundKib);
        List<DeviceDelta> devices = syncing == null ? List.of() : counters.deltas(syncing, idle);
        LatencyDistribution writes = split ? LatencyDistribution.ofNanos(pick(allWriteNanos, kept)) : null;
        LatencyDistribution syncs = split ? LatencyDistribution.ofNanos(pick(allSyncNanos, kept)) : null;
        return new SyncCost(mode, plan.blockSize(), rounds, h, loopNanos, idleNanos, devices, slowest, median, writes, syncs,
                tally);
    }

    /** The indexes of the first {@code rounds} rounds that are not marked in {@code leftOut} (null: none are). */
    private static int[] kept(int rounds, boolean[] leftOut) {
        int n = 0;
        for (int i = 0; i < rounds; i++) {
            n += leftOut != null && leftOut[i] ? 0 : 1;
        }
        int[] kept = new int[n];
        for (int i = 0, k = 0; i < rounds; i++) {
            if (leftOut == null || !leftOut[i]) {
                kept[k++] = i;
            }
        }
        return kept;
    }

    private static long[] pick(long[] all, int[] indexes) {
        long[] out = new long[indexes.length];
        for (int k = 0; k < indexes.length; k++) {
            out[k] = all[indexes[k]];
        }
        return out;
    }

    private static SlowRound slowRound(int i, long[] nanos, long[] flushes, long[] kib) {
        return new SlowRound(i, nanos[i], flushes == null ? -1 : flushes[i], kib == null ? -1 : kib[i]);
    }
}

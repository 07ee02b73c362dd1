package io.flushcheck.probe;

import com.sun.jna.Memory;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
    private final ProbeFiles files;
    private final StretchLoop stretches;

    private SyncProbe(SyncCalls calls, DeviceCounters counters, Set<SyncMode> warmed) {
        this.calls = calls;
        this.counters = counters;
        this.warmed = warmed;
        this.files = new ProbeFiles(calls);
        this.stretches = new StretchLoop(counters);
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
            int fd = files.createOwn(dir, file, mode == SyncMode.DSYNC);
            try {
                if (!hasControl(mode) || counters.isEmpty()) {
                    return loop(fd, -1, buffer, mode, plan, listener, stop);
                }
                Path controlFile = OwnFiles.probeName(dir.path(), mode.id() + "-control");
                int control = files.createOwn(dir, controlFile, false);
                try {
                    return loop(fd, control, buffer, mode, plan, listener, stop);
                } finally {
                    files.closeAndRemove(dir, control, controlFile);
                }
            } finally {
                files.closeAndRemove(dir, fd, file);
            }
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
        Round.Step unsynced = control < 0 ? null : switch (mode) {
            case OVERWRITE_FDATASYNC, FULL_FSYNC, BARRIER_FSYNC -> i -> calls.pwrite(control, buffer, bs, (i % controlSlots) * bs);
            default -> i -> calls.write(control, buffer, bs);
        };
        return stretches.measure(mode, plan, round, unsynced, listener, stop);
    }

    private Round overwrite(int fd, Memory buffer, int bs, long slots, java.util.function.IntConsumer sync) {
        return Round.of(i -> calls.pwrite(fd, buffer, bs, (i % slots) * bs), i -> sync.accept(fd));
    }

    private SyncCost javaForce(ProbeDirectory dir, Path file, ProbePlan plan, ProbeListener listener) {
        ByteBuffer buf = ByteBuffer.allocateDirect(plan.blockSize());
        byte[] pattern = new byte[plan.blockSize()];
        Arrays.fill(pattern, (byte) 0x5A);
        buf.put(pattern).flip();
        FileChannel opened = dir.held() ? files.javaChannelAt(dir, file) : files.javaChannelByPath(file);
        try (FileChannel ch = opened) {
            return stretches.measure(SyncMode.JAVA_FORCE, plan, Round.of(i -> {
                buf.rewind();
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }, i -> ch.force(true)), listener);
        } catch (IOException e) {
            throw new NativeCallException("java-force on " + file, 0, ProbeFiles.describe(e));
        } finally {
            OwnFiles.remove(file, dir);
        }
    }
}

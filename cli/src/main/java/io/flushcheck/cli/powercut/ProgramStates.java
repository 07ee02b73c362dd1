package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DataFault;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.powercut.LoggedWorld;
import io.flushcheck.powercut.ProcessWorld;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedDiskBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Every crash state of one run of a user's command: the command runs once on a disk that records it (on the
 * block model the drive's every write and flush, on the file model the tree's every operation and sync), with
 * {@code FLUSHCHECK_ACKS} naming a file it writes its acknowledgements to, a line each, which is followed as it
 * grows, each line counted from the flushes completed when it was written (the drive reads the file's size as each
 * flush completes, {@link io.flushcheck.powercut.AcknowledgedRecords#watchFile}). Each state is then mounted (on the
 * file model, written out as a directory, or served over FUSE from this process where it has 10,000 names or more)
 * and the verify run there by {@code sh -c}, in a world of its own, with
 * {@code {dir}} naming the state and {@code {acks}} a file of the lines acknowledged at or before the state's
 * flush count.
 */
final class ProgramStates implements AutoCloseable {

    static final String ACKS_VARIABLE = "FLUSHCHECK_ACKS";
    static final int TAIL_LINES = 3;

    /** What the run with the recording drive showed. */
    record Recorded(int commandExit, String commandTail, long flushes, int writes, int epochs, int acknowledgements,
                    double seconds) {
    }

    private final SimulatedDisk disk;
    /** The disk's work directory: the acknowledgement files live there, and go with it, after a kill too. */
    private final Path work;
    private final List<String> command;
    private final String verify;
    private final double timeoutSeconds;
    private CrashStates states;

    private ProgramStates(SimulatedDisk disk, Path work, List<String> command, String verify, double timeoutSeconds) {
        this.disk = disk;
        this.work = work;
        this.command = List.copyOf(command);
        this.verify = verify;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * A fresh disk of {@code model} (block or file) for the command: {@code fs} and {@code atomicWriteBytes} are the
     * block model's, {@code rules} the file model's. Closing this removes it, the recording and its states with it.
     */
    static ProgramStates open(Path work, DiskModel model, long sizeBytes, String fs, int atomicWriteBytes,
                              FileRules rules, List<String> command, String verify, double timeoutSeconds)
            throws IOException {
        // The other model's options stay out: the builder refuses them rather than ignore them.
        SimulatedDiskBuilder b = SimulatedDisk.builder().model(model).sizeBytes(sizeBytes);
        SimulatedDisk disk = (model == DiskModel.FILE ? b.rules(rules) : b.fs(fs).atomicWriteBytes(atomicWriteBytes))
                .create(work);
        return new ProgramStates(disk, work, command, verify, timeoutSeconds);
    }

    /** Runs the command once, the power on, the drive recording; what it acknowledged is kept. */
    Recorded record() throws Exception {
        long t0 = System.nanoTime();
        Path acks = Files.createTempFile(work, "acks-", ".txt");
        try {
            int[] exit = new int[1];
            String[] tail = new String[1];
            long[] flushes = new long[1];
            states = disk.recordCrashStates(acknowledged -> {
                long start = disk.flushes();
                acknowledged.watchFile(acks); // the drive reads its size at each flush: each line counts from when it was written
                try (AckTail following = AckTail.start(acks, acknowledged::addLine);
                     LoggedWorld p = LoggedWorld.start(ProgramCuts.substitute(command, disk.path()), b -> {
                         b.environment().put(ACKS_VARIABLE, acks.toString());
                         return ProcessWorld.start(b);
                     })) {
                    if (!p.waitFor(timeoutSeconds)) {
                        p.kill();
                        throw new IOException("the command was still running after " + seconds(timeoutSeconds)
                                + " with the power on: give it more with --timeout");
                    }
                    exit[0] = p.exitCode();
                    tail[0] = p.tail(TAIL_LINES);
                }
                flushes[0] = disk.flushes() - start;
            });
            return new Recorded(exit[0], tail[0], flushes[0], states.writes(), states.epochs(),
                    states.acknowledged().all().size(), (System.nanoTime() - t0) / 1e9);
        } finally {
            Files.deleteIfExists(acks);
        }
    }

    /**
     * Keeps the recording in {@code dir} ({@link CrashStates#save}), to be checked with {@code --replay} here or
     * elsewhere; returns its id.
     */
    String save(Path dir) throws IOException {
        return states.save(dir);
    }

    /** Draws up to {@code draw}'s count of states beyond those enumerated, from its seed; nothing for null. */
    void draw(ReplayOutput.Draw draw) {
        if (draw != null) {
            states.draw(draw.count(), draw.seed());
        }
    }

    /**
     * Checks each state besides with up to {@code blocks} damaged blocks of its files ({@link CrashStates#damaged}),
     * of {@code blockBytes}, each of {@code kinds}, the bits flipped drawn from {@code seed}.
     */
    void damage(List<DataFault.Kind> kinds, int blockBytes, int blocks, long seed) {
        states.damaged(kinds, blockBytes, blocks, seed);
    }

    /** The filesystem each state is mounted as: {@code files} on the file model, whose states are directories. */
    String fs() {
        return states.fs();
    }

    /** The file model's rules, which its states follow; null on the block model. */
    FileRules rules() {
        return states.rules();
    }

    /** The bytes the drive wrote atomically; 1 on the file model, which keeps or loses each operation whole. */
    int atomicWriteBytes() {
        return states.atomicWriteBytes();
    }

    /** The states {@link #check} checks with the bound {@code maxStates}, enumerated now: {@code progress} hears how far. */
    int states(int maxStates, CrashStates.EnumerationProgress progress) {
        return states.states(maxStates, progress);
    }

    /**
     * Mounts (on the file model, writes out) each state, up to {@code maxStates}, and runs the verify there, up to
     * {@code workers} at once, each verify a process of its own; {@code done} hears each one checked, one at a time.
     */
    CrashStateReport check(int maxStates, int workers, IntConsumer done) throws IOException {
        // The verify is a process of its own: the file model's large states are served to it over FUSE from here.
        return states.inParallel(workers).servedToProcesses().check(maxStates,
                new VerifyCommand(verify, work, timeoutSeconds, done));
    }

    @Override
    public void close() throws IOException {
        disk.close();
    }

    private static String seconds(double s) {
        return String.format(java.util.Locale.ROOT, "%.0f s", s);
    }
}

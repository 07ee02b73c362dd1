package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.DriveServerFailedException;
import io.flushcheck.powercut.FaultPlan;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.powercut.LoggedWorld;
import io.flushcheck.powercut.PowerCut;
import io.flushcheck.powercut.ProcessWorld;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedDiskBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the power under a user's command: each cut on a fresh {@link SimulatedDisk}, the command run with
 * {@code {dir}} naming the disk's filesystem in a {@link io.flushcheck.powercut.ProcessWorld} of its own,
 * the power cut at the command's k-th flush (the drive kills the command's whole world at that moment) or
 * at its exit, and the verify command run by {@code sh -c}, in a world of its own too, with {@code {dir}}
 * naming what survived.
 */
final class ProgramCuts {

    static final String DIR = "{dir}";
    /** A flush no command reaches: the cut that waits for the command's exit. */
    private static final long NEVER = Integer.MAX_VALUE;
    private static final int TAIL_LINES = 3;

    private final Path work;
    private final DiskModel model;
    private final long sizeBytes;
    private final String fs;
    private final int atomicWriteBytes;
    private final List<String> command;
    private final String verify;
    private final double timeoutSeconds;
    /** The file model's rules. */
    FileRules rules = FileRules.JOURNALED;

    ProgramCuts(Path work, DiskModel model, long sizeBytes, String fs, int atomicWriteBytes, List<String> command,
                String verify, double timeoutSeconds) {
        this.work = work;
        this.model = model;
        this.sizeBytes = sizeBytes;
        this.fs = fs;
        this.atomicWriteBytes = atomicWriteBytes;
        this.command = List.copyOf(command);
        this.verify = verify;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * What a run with the power on shows: the command's flushes and exit code, and the verify's exit code
     * on the filesystem the command left (a verify that fails there fails every cut); the verify's exit is
     * null when it was not run or timed out.
     */
    record DryRun(long flushes, int commandExit, String commandTail, Integer verifyExit, String verifyTail,
                  double seconds) {
    }

    private SimulatedDisk disk() throws IOException {
        // The options of the model AUTO did not choose stay out: the builder refuses them rather than ignore them.
        DiskModel chosen = model.resolved();
        SimulatedDiskBuilder disk = SimulatedDisk.builder().model(chosen).sizeBytes(sizeBytes);
        return (chosen == DiskModel.FILE ? disk.rules(rules) : disk.fs(fs).atomicWriteBytes(atomicWriteBytes)).create(work);
    }

    /**
     * Runs the command on a disk whose power stays on, and then, when {@code check}, the verify. The command's
     * world ends when the command exits: what it left running is killed, as a crash would, before the verify.
     */
    DryRun dryRun(boolean check) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        try (SimulatedDisk disk = disk()) {
            long start = disk.flushes();
            try (LoggedWorld p = LoggedWorld.start(substitute(command, disk.path()), disk::start)) {
                if (!p.waitFor(timeoutSeconds)) {
                    throw new IOException("the command was still running after " + seconds(timeoutSeconds)
                            + " with the power on: give it more with --timeout");
                }
                long flushes = disk.flushes() - start;
                double took = (System.nanoTime() - t0) / 1e9;
                Verified v = check ? verify(disk.path()) : new Verified(null, "");
                return new DryRun(flushes, p.exitCode(), p.tail(TAIL_LINES), v.exit, v.tail, took);
            }
        }
    }

    /**
     * One cut: the power goes at {@code point} of the command (after or during its k-th flush), or at its exit
     * when it ends first (then a subset of the unflushed sectors, drawn from {@code seed}, survives; during a
     * flush, a subset of those written since the flush before). Either way every process the command started is
     * dead and reaped before the verify runs.
     */
    CutOutcome cut(int number, long seed, CutPoint point) throws IOException, InterruptedException {
        return cut(number, seed, point, null);
    }

    /**
     * As {@link #cut(int, long, CutPoint)}; with {@code failing}, once the command has completed {@code failing.after()}
     * flushes, the next fails with its errno, and every one after it when persistent, and
     * the power is cut at the command's exit ({@code afterFlushes} 0 in the outcome).
     */
    CutOutcome cut(int number, long seed, CutPoint point, FaultPlan failing)
            throws IOException, InterruptedException {
        try (SimulatedDisk disk = disk()) {
            CutPoint armed = failing != null ? CutPoint.exit(0) : point;
            long start = arm(disk, armed, seed);
            long afterFlushes = point.flush();
            if (failing != null) {
                disk.failFlushes(new FaultPlan(start + failing.after(), failing.errno(), failing.persistent()));
                afterFlushes = 0;
            }
            try (LoggedWorld p = LoggedWorld.start(substitute(command, disk.path()), disk::start)) {
                boolean ended = p.waitFor(timeoutSeconds);
                Path survivor;
                String failure = null;
                try {
                    // The drive kills the command's world as the power goes, and the cut returns once it is reaped.
                    survivor = disk.cutPower(seed);
                } catch (UncheckedIOException e) {
                    if (e.getCause() instanceof DriveServerFailedException failed) {
                        throw failed; // not a verdict on the command: nothing of this cut can be trusted
                    }
                    if (disk.cuts().isEmpty()) {
                        throw new IOException("the simulated drive did not cut: " + e.getCause().getMessage(), e);
                    }
                    survivor = null;
                    failure = "what survived could not be mounted: " + e.getCause().getMessage();
                }
                PowerCut cut = disk.cuts().get(0);
                boolean atPoint = armed.kind() != CutPoint.Kind.EXIT && cut.armed();
                String cutAt = atPoint ? (armed.kind() == CutPoint.Kind.DURING ? "during" : "flush")
                        : ended ? "exit" : "timeout";
                Integer commandExit = ended && !atPoint ? p.exitCode() : null;
                if (cutAt.equals("timeout") && failure == null) {
                    failure = "the command was still running after " + seconds(timeoutSeconds);
                }
                Verified v = survivor == null ? new Verified(null, "") : verify(survivor);
                if (failure == null && v.exit == null) {
                    failure = "the verify was still running after " + seconds(timeoutSeconds);
                }
                return new CutOutcome(number, seed, afterFlushes, cutAt, commandExit, p.tail(TAIL_LINES),
                        cut.flushes() - start, cut.unflushedBytes() - cut.keptBytes(), cut.keptBytes(), v.exit, v.tail,
                        failure, armed.kind() == CutPoint.Kind.DURING, cut.lost(), cut.discarded());
            }
        }
    }

    /**
     * Arms the cut at {@code point}, counted from now, and returns the flushes so far. The kernel flushes on its
     * own too (the journal's commit timer): one that lands between reading the count and arming would make the
     * armed flush one already past, so read again. The command's world, started after this, dies at the cut.
     */
    static long arm(SimulatedDisk disk, CutPoint point, long seed) {
        while (true) {
            long start = disk.flushes();
            try {
                switch (point.kind()) {
                    case AFTER -> disk.cutAfterFlushes(start + point.flush());
                    case DURING -> disk.cutDuringFlush(start + point.flush(), seed);
                    case EXIT -> disk.cutAfterFlushes(start + NEVER);
                }
                return start;
            } catch (IllegalArgumentException e) {
                if (!String.valueOf(e.getMessage()).contains("has already happened")) {
                    throw e;
                }
            }
        }
    }

    private record Verified(Integer exit, String tail) {
    }

    private Verified verify(Path dir) throws IOException, InterruptedException {
        // A world of its own too: what the verify leaves running (a server it started) ends with it.
        try (LoggedWorld v = LoggedWorld.start(List.of("sh", "-c", verify.replace(DIR, shellWord(dir.toString()))), ProcessWorld::start)) {
            if (!v.waitFor(timeoutSeconds)) {
                v.kill();
                return new Verified(null, v.tail(TAIL_LINES));
            }
            return new Verified(v.exitCode(), v.tail(TAIL_LINES));
        }
    }

    /** {@code {dir}} in each argument replaced by {@code dir}. */
    static List<String> substitute(List<String> argv, Path dir) {
        List<String> out = new ArrayList<>();
        for (String a : argv) {
            out.add(a.replace(DIR, dir.toString()));
        }
        return out;
    }

    /**
     * The path as the shell reads it: as it is when it holds nothing the shell treats specially (the
     * disks' paths never do unless the temporary directory's name does), so that {@code "{dir}/x"} works
     * in double quotes too; else in single quotes.
     */
    static String shellWord(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '/' || c == '.' || c == '_' || c == '-' || c == '+')) {
                return "'" + s.replace("'", "'\\''") + "'";
            }
        }
        return s;
    }

    private static String seconds(double s) {
        return String.format(java.util.Locale.ROOT, "%.0f s", s);
    }
}

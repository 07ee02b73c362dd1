package io.flushcheck.cli;

import io.flushcheck.powercut.PowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts the power under a user's command: each cut on a fresh {@link SimulatedDisk}, the command run with
 * {@code {dir}} naming the disk's filesystem, the power cut at the command's k-th flush (the drive kills
 * the command's process group at that moment) or at its exit, and the verify command run by {@code sh -c}
 * with {@code {dir}} naming what survived.
 */
final class ProgramCuts {

    static final String DIR = "{dir}";
    private static final int TAIL_LINES = 3;

    private final Path work;
    private final long sizeBytes;
    private final String fs;
    private final List<String> command;
    private final String verify;
    private final double timeoutSeconds;

    ProgramCuts(Path work, long sizeBytes, String fs, List<String> command, String verify, double timeoutSeconds) {
        this.work = work;
        this.sizeBytes = sizeBytes;
        this.fs = fs;
        this.command = List.copyOf(command);
        this.verify = verify;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * What a run with the power on shows: the command's flushes and exit code, and the verify's exit code
     * on the filesystem the command left (a verify that fails there fails every cut).
     */
    record DryRun(long flushes, int commandExit, String commandTail, Integer verifyExit, String verifyTail,
                  double seconds) {
    }

    /** Runs the command and then the verify on a disk whose power stays on. */
    DryRun dryRun() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        try (SimulatedDisk disk = SimulatedDisk.create(work, sizeBytes, fs, List.of());
             GroupProcess p = GroupProcess.start(substitute(command, disk.path()))) {
            long start = disk.flushes();
            p.release();
            if (!p.waitFor(timeoutSeconds)) {
                throw new IOException("the command was still running after " + seconds(timeoutSeconds)
                        + " with the power on: give it more with --timeout");
            }
            long flushes = disk.flushes() - start;
            double took = (System.nanoTime() - t0) / 1e9;
            Verified v = verify(disk.path());
            return new DryRun(flushes, p.exitCode(), p.tail(TAIL_LINES), v.exit, v.tail, took);
        }
    }

    /**
     * One cut: the power goes when the command completes its {@code afterFlushes}-th flush, or at its exit
     * when it ends first (then a subset of the unflushed sectors, drawn from {@code seed}, survives).
     */
    CutOutcome cut(int number, long seed, long afterFlushes) throws IOException, InterruptedException {
        try (SimulatedDisk disk = SimulatedDisk.create(work, sizeBytes, fs, List.of());
             GroupProcess p = GroupProcess.start(substitute(command, disk.path()))) {
            long start = arm(disk, afterFlushes, p.group());
            p.release();
            boolean ended = p.waitFor(timeoutSeconds);
            Path survivor;
            String failure = null;
            try {
                // Cut before anything else: a command that ended may have left children writing.
                survivor = disk.cutPower(seed);
            } catch (UncheckedIOException e) {
                survivor = null;
                failure = "what survived could not be mounted: " + e.getCause().getMessage();
            }
            p.killGroup();
            PowerCut cut = disk.cuts().get(0);
            boolean atFlush = cut.flushes() >= start + afterFlushes;
            String cutAt = atFlush ? "flush" : ended ? "exit" : "timeout";
            Integer commandExit = ended && !atFlush ? p.exitCode() : null;
            if (cutAt.equals("timeout") && failure == null) {
                failure = "the command was still running after " + seconds(timeoutSeconds);
            }
            Verified v = survivor == null ? new Verified(null, "") : verify(survivor);
            if (failure == null && v.exit == null) {
                failure = "the verify was still running after " + seconds(timeoutSeconds);
            }
            return new CutOutcome(number, seed, afterFlushes, cutAt, commandExit, p.tail(TAIL_LINES),
                    cut.flushes() - start, cut.unflushedBytes() - cut.keptBytes(), cut.keptBytes(), v.exit, v.tail,
                    failure);
        }
    }

    /**
     * Arms the cut at the {@code afterFlushes}-th flush from now, and returns the flushes so far. The
     * kernel flushes on its own too (the journal's commit timer): one that lands between reading the
     * count and arming would make the armed flush one already past, so read again.
     */
    private static long arm(SimulatedDisk disk, long afterFlushes, long group) {
        while (true) {
            long start = disk.flushes();
            try {
                disk.cutAfterFlushes(start + afterFlushes, group);
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
        try (GroupProcess v = GroupProcess.start(List.of("sh", "-c", verify.replace(DIR, shellWord(dir.toString()))))) {
            v.release();
            if (!v.waitFor(timeoutSeconds)) {
                v.killGroup();
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

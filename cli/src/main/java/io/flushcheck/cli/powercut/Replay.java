package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.OutputOptions;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.UnreadableRecordingException;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * {@code flushcheck powercut --replay DIR [--shard I/N]}: the crash states of a recording {@code --record} kept,
 * checked here as {@code --explore} checks them, without running its command again.
 */
final class Replay {

    private final Path saved;
    private final Shard shard;
    private final int maxStates;
    private final ReplayOutput.Draw draw;
    /** {@code --workers}; null for the default. */
    private final Integer workers;
    private final String verify;
    private final double timeoutSeconds;
    private final OutputOptions output;

    Replay(Path saved, Shard shard, int maxStates, ReplayOutput.Draw draw, Integer workers, String verify,
           double timeoutSeconds, OutputOptions output) {
        this.saved = saved;
        this.shard = shard;
        this.maxStates = maxStates;
        this.draw = draw;
        this.workers = workers;
        this.verify = verify;
        this.timeoutSeconds = timeoutSeconds;
        this.output = output;
    }

    /** {@code problems}: what the command line asked that --replay does not take, refused first. */
    int run(PrintStream out, PrintStream err, List<String> problems) throws UsageException {
        if (!problems.isEmpty()) {
            throw new UsageException("powercut: " + String.join("; ", problems));
        }
        if (verify == null || !verify.contains(ProgramCuts.DIR)) {
            throw new UsageException("powercut --replay: --verify 'VERIFY {dir} {acks}' is " + (verify == null
                    ? "missing: the command that checks each state" : "missing {dir}, the state's directory: " + verify));
        }
        if (!Files.isDirectory(saved)) {
            throw new UsageException("powercut --replay " + saved + ": no such directory (keep a recording there with"
                    + " --explore --record DIR)");
        }
        // What the recording's model needs is said before its files are read whole (a block model's image can
        // take seconds to hash).
        DiskModel model;
        try {
            model = CrashStates.savedModel(saved);
        } catch (UnreadableRecordingException e) {
            throw new UsageException("powercut --replay " + saved + ": " + e.getMessage());
        } catch (IOException e) {
            err.println("flushcheck powercut --replay: " + Escape.of(String.valueOf(e.getMessage())));
            return ExitCodes.INTERNAL;
        }
        if (draw != null && model == DiskModel.FILE) {
            throw new UsageException("powercut --replay " + saved + ": --draw draws states of a block model's"
                    + " recording, and this one is the file model's, whose states are enumerated only; leave --draw"
                    + " out");
        }
        int parallel = PowerCutCommand.workers(workers, model);
        String missing = missing(model);
        if (missing != null) {
            err.println("flushcheck powercut --replay: checking a " + ExploreOutput.word(model)
                    + " model's crash states needs " + missing + " here");
            return ExitCodes.INTERNAL;
        }
        Path work = Machine.workDir();
        try {
            CrashStates loaded;
            try {
                loaded = CrashStates.load(saved, work);
            } catch (UnreadableRecordingException e) {
                throw new UsageException("powercut --replay " + saved + ": " + e.getMessage());
            }
            try (CrashStates states = loaded) {
                if (draw != null) {
                    states.draw(draw.count(), draw.seed());
                }
                // The verify is a process of its own: the file model's large states are served to it over FUSE here.
                states.inParallel(parallel).servedToProcesses();
                boolean quiet = output.quiet;
                int total = states.states(maxStates, new EnumerationLines(err, quiet, states.epochs()));
                int mine = shard == null ? total
                        : Math.max(0, (total - shard.fromZero() + shard.count() - 1) / shard.count());
                if (!quiet) {
                    err.printf(Locale.ROOT, "flushcheck powercut: recording %s (the %s model): %s, %d acknowledgements;"
                            + " checking %d of its %d crash states%s%n", states.recordingId(),
                            ExploreOutput.word(states.model()), ExploreOutput.writes(states.model(), states.writes()),
                            states.acknowledged().all().size(), mine, total,
                            shard == null ? "" : " (shard " + shard + ")");
                }
                long[] shown = {System.nanoTime()};
                VerifyCommand verification = new VerifyCommand(verify, work, timeoutSeconds, done -> {
                    long now = System.nanoTime();
                    // A line a second at most, as --explore prints.
                    if (!quiet && (now - shown[0] >= 1_000_000_000L || done == mine)) {
                        shown[0] = now;
                        err.printf(Locale.ROOT, "flushcheck powercut: [%d/%d] crash states checked%n", done, mine);
                    }
                });
                CrashStateReport report = shard == null ? states.check(maxStates, verification)
                        : states.check(maxStates, shard.fromZero(), shard.count(), verification);
                out.print(output.json ? Json.write(ReplayOutput.json(verify, shard, draw, states, report))
                        : ReplayOutput.text(saved, shard, states, report));
                out.flush();
                return report.failing() == 0 ? ExitCodes.OK : ExitCodes.VERIFY_FAILED;
            }
        } catch (IOException | UncheckedIOException e) {
            err.println("flushcheck powercut --replay: " + Escape.of(e instanceof UncheckedIOException u
                    ? u.getCause().getMessage() : String.valueOf(e.getMessage())));
            return ExitCodes.INTERNAL;
        } finally {
            delete(work);
        }
    }

    /**
     * What this machine lacks to check the states of a recording made on {@code model}: a block model's are
     * mounted (root, loop devices), a file model's are directories; each verify runs in a world of its own.
     */
    private static String missing(DiskModel model) {
        if (model == DiskModel.BLOCK && !Machine.isRoot()) {
            return "root (to attach loop devices and mount)";
        }
        List<String> tools = model == DiskModel.BLOCK ? List.of("losetup", "mount", "umount", "setsid", "setpriv",
                "unshare") : List.of("setsid", "setpriv", "unshare");
        for (String tool : tools) {
            if (Machine.which(tool) == null) {
                return "the " + tool + " command (util-linux)";
            }
        }
        return null;
    }

    /**
     * The work directory: the check removed its image and mount point; its marks for a cleanup stay till here. What
     * cannot go stays for the next run's sweep (its owner no longer runs then).
     */
    private static void delete(Path work) {
        CrashStates.deleteWork(work);
    }
}

package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * {@code flushcheck powercut explore} (or {@code --explore}): the command once, recorded, then every crash state of
 * it, each verified.
 */
final class Explore {

    /** The options as given, checked by {@link PowerCutUsage}. */
    private final PowerCutCommand c;

    Explore(PowerCutCommand c) {
        this.c = c;
    }

    int run(PrintStream out, PrintStream err) throws UsageException {
        int bound = c.maxStates == null ? PowerCutCommand.DEFAULT_MAX_STATES : c.maxStates;
        int parallel = workers(); // a bad system property is said before the command runs
        boolean quiet = c.output.quiet;
        DiskModel resolved = c.disk.model.resolved();
        PowerCutUsage.refuseRecordDirectory(c);
        try (ProgramStates run = ProgramStates.open(Machine.workDir(), resolved, c.sizeBytes(), c.disk.fs(), c.atomicBytes(),
                c.rules.rules, c.command, c.verify, c.timeout == null ? 120 : c.timeout)) {
            if (!quiet) {
                err.println("flushcheck powercut: " + Machine.modelLine(c.disk.model, c.disk.fs(), c.rules.rules));
                err.println("flushcheck powercut: the command runs once, the power on, "
                        + (resolved == DiskModel.FILE ? "the file tree recording its operations and syncs"
                        : "the drive recording its writes and flushes"));
            }
            ProgramStates.Recorded recorded = run.record();
            if (recorded.commandExit() != 0) {
                throw new UsageException("powercut: the command exited " + recorded.commandExit()
                        + " with the power on, so its crash states would test nothing: " + recorded.commandTail());
            }
            String id = null;
            if (c.record != null) {
                id = run.save(c.record);
                if (!quiet) {
                    err.println("flushcheck powercut: the recording is kept in " + Escape.of(c.record.toString())
                            + " (recording " + id + "): check it with --replay");
                }
            }
            run.draw(ReplayOutput.Draw.of(c.draw, c.seed));
            ExploreOutput.Damage damage = c.damage();
            if (damage != null) {
                run.damage(damage.kindsOf(), damage.blockBytes(), damage.blocks(), damage.seed());
            }
            int total = run.states(bound, new EnumerationLines(err, quiet, recorded.epochs()));
            if (!quiet) {
                err.printf(Locale.ROOT, "flushcheck powercut: %d flushes, %s, %d acknowledgements in %.1f s;"
                        + " checking %d crash states%n", recorded.flushes(), ExploreOutput.writes(resolved,
                        recorded.writes()), recorded.acknowledgements(), recorded.seconds(), total);
            }
            long[] shown = {System.nanoTime()};
            CrashStateReport report = run.check(bound, parallel, done -> {
                long now = System.nanoTime();
                // A line a second at most: a long run shows it is moving without a line per state.
                if (!quiet && (now - shown[0] >= 1_000_000_000L || (damage == null && done == total))) {
                    shown[0] = now;
                    if (damage == null) {
                        err.printf(Locale.ROOT, "flushcheck powercut: [%d/%d] crash states checked%n", done, total);
                    } else {
                        err.printf(Locale.ROOT, "flushcheck powercut: [%d] checks of %d crash states, each also with up"
                                + " to %d damaged blocks%n", done, total, damage.blocks());
                    }
                }
            });
            if (!quiet && damage != null) {
                err.printf(Locale.ROOT, "flushcheck powercut: %d crash states checked, and %d times with a damaged"
                        + " block%n", report.checked(), report.damagedChecks());
            }
            out.print(c.output.json ? Json.write(ExploreOutput.json(c.command, c.verify, resolved, run.rules(), run.fs(),
                    (int) (c.sizeBytes() >> 20), run.atomicWriteBytes(), ReplayOutput.Draw.of(c.draw, c.seed), damage,
                    recorded, report, id)) : ExploreOutput.text(c.disks(), resolved, recorded, report,
                    damage != null));
            out.flush();
            return report.failing() == 0 ? ExitCodes.OK : ExitCodes.VERIFY_FAILED;
        } catch (UsageException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("flushcheck powercut: interrupted");
            return ExitCodes.INTERNAL;
        } catch (Exception e) {
            err.println("flushcheck powercut --explore: " + Escape.of(e instanceof UncheckedIOException u
                    ? u.getCause().getMessage() : String.valueOf(e.getMessage())));
            return ExitCodes.INTERNAL;
        }
    }

    /** {@code --workers}, else the model's default ({@link PowerCutCommand#workers}). */
    private int workers() throws UsageException {
        return PowerCutCommand.workers(c.workers, c.disk.model.resolved());
    }
}

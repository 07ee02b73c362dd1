package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FaultPlan;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code flushcheck powercut}'s cuts: a run with the power on to count the command's flushes (unless the cut's
 * flush is given), then N cuts, each on a fresh disk, then their table or JSON; exit 1 when a verify failed.
 */
final class Cuts {

    /** The options as given, checked by {@link PowerCutUsage}. */
    private final PowerCutCommand c;
    private final CutsOutput report;

    Cuts(PowerCutCommand c) {
        this.c = c;
        this.report = new CutsOutput(c);
    }

    /** {@code resolved}: the model the options were checked against, which the cuts run on. */
    int run(PrintStream out, PrintStream err, DiskModel resolved) throws UsageException {
        long first = c.seed != null ? c.seed : new SecureRandom().nextInt() & Integer.MAX_VALUE;
        int n = c.cuts == null ? PowerCutCommand.DEFAULT_CUTS : c.cuts;
        boolean quiet = c.output.quiet;
        if (!quiet) {
            err.println("flushcheck powercut: " + Machine.modelLine(c.disk.model, c.disk.fs(), c.rules.rules));
        }
        ProgramCuts runner = new ProgramCuts(Machine.workDir(), resolved, c.sizeBytes(), c.disk.fs(), c.atomicBytes(), c.command, c.verify,
                c.timeout == null ? 120 : c.timeout);
        runner.rules = c.rules.rules;
        List<CutOutcome> outcomes = new ArrayList<>();
        Long dryFlushes = null;
        long began = System.nanoTime();
        try {
            if (c.afterFlushes == null && c.duringFlush == null && c.failFlush == null) {
                if (!quiet) {
                    err.println("flushcheck powercut: a run with the power on, to count the command's flushes"
                            + (c.noPowerOnCheck ? " (VERIFY not run there: --no-power-on-check)" : ""));
                }
                ProgramCuts.DryRun dry = runner.dryRun(!c.noPowerOnCheck);
                if (dry.commandExit() != 0) {
                    throw new UsageException("powercut: the command exited " + dry.commandExit()
                            + " with the power on, so its cuts would test nothing: " + dry.commandTail());
                }
                if (!c.noPowerOnCheck && (dry.verifyExit() == null || dry.verifyExit() != 0)) {
                    throw new UsageException("powercut: the verify " + (dry.verifyExit() == null ? "timed out"
                            : "exited " + dry.verifyExit()) + " on what the command left with the power on, so it "
                            + "would fail every cut: " + dry.verifyTail() + " (when the program may lose acknowledged data"
                            + " on a crash with the power on, as an asynchronous commit does, say so with --no-power-on-check)");
                }
                dryFlushes = dry.flushes();
                if (c.sweep) {
                    if (2 * dryFlushes + 1 > PowerCutCommand.MAX_CUTS) {
                        throw new UsageException("powercut --sweep: the command made " + dryFlushes + " flushes, "
                                + (2 * dryFlushes + 1) + " cut points, more than the " + PowerCutCommand.MAX_CUTS + " cuts a run makes:"
                                + " cut at random with --cuts N instead");
                    }
                    n = (int) (2 * dryFlushes + 1);
                }
                if (!quiet) {
                    err.printf(Locale.ROOT, "flushcheck powercut: %d flushes in %.1f s; %s%n", dry.flushes(), dry.seconds(),
                            c.sweep ? String.format(Locale.ROOT, "the sweep makes %d cuts (the exit, after and during each"
                                    + " flush), about %.0f s at the time of that run each", n, n * dry.seconds())
                                    : "the first cut falls at the command's exit, the others after or during flushes 1 to "
                                    + dry.flushes());
                }
            }
            long[] seeds = seeds(first, n);
            List<CutPoint> points = c.failFlush != null ? null
                    : c.afterFlushes != null ? java.util.Collections.nCopies(n, CutPoint.after(c.afterFlushes))
                    : c.duringFlush != null ? java.util.Collections.nCopies(n, CutPoint.during(c.duringFlush))
                    : c.sweep ? CutPoint.sweep(dryFlushes) : CutPoint.atRandom(seeds, dryFlushes);
            began = System.nanoTime();
            for (int i = 0; i < n; i++) {
                CutPoint point = points == null ? CutPoint.exit(0) : points.get(i);
                CutOutcome o = runner.cut(i + 1, seeds[i], point, c.failFlush == null ? null
                        : new FaultPlan(c.failFlush - 1, c.failErrno(), !c.failOnce));
                outcomes.add(o);
                if (!quiet) {
                    err.printf(Locale.ROOT, "flushcheck powercut: [%d/%d] seed %d: cut at %s, verify %s%n", i + 1, n,
                            seeds[i], o.where(), o.verdict());
                }
            }
        } catch (IOException | UncheckedIOException e) {
            // UncheckedIOException: a disk's command failed (its server died, say), which is no verdict either
            if (!outcomes.isEmpty()) {
                // what the cuts before showed still counts
                out.print(c.output.json ? Json.write(report.json(outcomes, first, dryFlushes)) : report.table(outcomes, first, dryFlushes));
                out.flush();
            }
            err.println("flushcheck powercut: " + (dryFlushes == null && c.afterFlushes == null && c.duringFlush == null && c.failFlush == null
                    ? "the run with the power on: "
                    : "cut " + (outcomes.size() + 1) + ": ")
                    + Escape.of(e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage()));
            return ExitCodes.INTERNAL;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("flushcheck powercut: interrupted");
            return ExitCodes.INTERNAL;
        }
        out.print(c.output.json ? Json.write(report.json(outcomes, first, dryFlushes)) : report.table(outcomes, first, dryFlushes));
        out.flush();
        if (c.sweep && !quiet) {
            err.printf(Locale.ROOT, "flushcheck powercut: the sweep's %d cuts took %.0f s%n", outcomes.size(),
                    (System.nanoTime() - began) / 1e9);
        }
        for (CutOutcome o : outcomes) {
            if (!o.passed()) {
                return ExitCodes.VERIFY_FAILED;
            }
        }
        return ExitCodes.OK;
    }

    /** Cut 1's seed is {@code first}, so that one cut repeats alone; the others are spread from it. */
    static long[] seeds(long first, int n) {
        long[] seeds = new long[n];
        SplittableRandom spread = new SplittableRandom(first);
        for (int i = 0; i < n; i++) {
            seeds[i] = i == 0 ? first : spread.nextLong(Long.MAX_VALUE);
        }
        return seeds;
    }
}

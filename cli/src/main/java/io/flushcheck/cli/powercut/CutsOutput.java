package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code flushcheck powercut} prints of its cuts: a table a person reads, with the line that repeats each
 * failing cut alone, or every cut in JSON.
 */
final class CutsOutput {

    private static final int TAIL_CHARS = 60;
    /** The lines under a failing cut's row that say what it discarded; the rest are in the JSON. */
    static final int DISCARDED_SHOWN = 3;

    /** The options the cuts ran with. */
    private final PowerCutCommand c;

    CutsOutput(PowerCutCommand c) {
        this.c = c;
    }

    /** The command line that repeats one cut alone. */
    String repeatLine(CutOutcome o) {
        List<String> line = new ArrayList<>(List.of("flushcheck", "powercut"));
        if (c.disk.model != DiskModel.AUTO || c.disk.model.resolved() == DiskModel.FILE) {
            // What ran, even where auto chose it: auto may choose otherwise where the line is run again.
            line.addAll(List.of("--model", c.disk.model.resolved().name().toLowerCase(Locale.ROOT)));
        }
        if (c.rules.rules != FileRules.JOURNALED) {
            line.addAll(List.of("--rules", c.rules.rules.word()));
        }
        if (!c.disk.fs().equals("ext4")) {
            line.addAll(List.of("--fs", c.disk.fs()));
        }
        if (c.disk.sizeMib != null) {
            line.addAll(List.of("--size-mib", String.valueOf(c.disk.sizeMib)));
        }
        if (c.atomicWriteBytes != null) {
            line.addAll(List.of("--atomic-write-bytes", String.valueOf(c.atomicWriteBytes)));
        }
        if (c.timeout != null) {
            line.addAll(List.of("--timeout", String.valueOf(c.timeout)));
        }
        line.addAll(List.of("--cuts", "1"));
        if (c.failFlush != null) {
            line.addAll(List.of("--fail-flush", String.valueOf(c.failFlush)));
            if (c.failOnce) {
                line.add("--fail-once");
            }
            if (c.errno != null) {
                line.addAll(List.of("--errno", c.errno.name()));
            }
        } else {
            line.addAll(List.of(o.armedDuring() ? "--during-flush" : "--after-flushes", String.valueOf(o.afterFlushes())));
        }
        line.addAll(List.of("--seed", String.valueOf(o.seed()), "--verify", c.verify, "--"));
        line.addAll(c.command);
        StringBuilder sb = new StringBuilder();
        for (String a : line) {
            sb.append(sb.length() == 0 ? "" : " ").append(ProgramCuts.shellWord(a));
        }
        return sb.toString();
    }

    String table(List<CutOutcome> outcomes, long first, Long dryFlushes) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d cuts on %s, seed %d, %s%n", outcomes.size(), c.disks(), first,
                c.failFlush != null ? "the command's flush " + c.failFlush + " failing with " + c.failErrno()
                        + (c.failOnce ? " once" : ", and every one after it")
                        + ", the power cut at its exit"
                : c.afterFlushes != null ? "after the command's flush " + c.afterFlushes
                : c.duringFlush != null ? "during the command's flush " + c.duringFlush
                : (c.sweep ? "at its exit and after and during each of the command's flushes 1 to " + dryFlushes
                        : "the first at the command's exit, the others at random after or during its flushes 1 to "
                        + dryFlushes) + (c.noPowerOnCheck ? "; VERIFY was not run with the power on (--no-power-on-check)" : "")));
        // The byte columns count data only: on the file model a cut that lost only a rename would read "0 discarded"
        // with no column saying what it did discard.
        boolean files = c.disk.model.resolved() == DiskModel.FILE;
        sb.append(String.format(Locale.ROOT, "%4s %20s %-10s %8s %10s %10s%s  %s%n", "cut", "seed", "cut at", "flushes",
                "discarded", "kept", files ? String.format(Locale.ROOT, " %6s", "names") : "", "verify"));
        int failed = 0;
        for (CutOutcome o : outcomes) {
            String verdict = o.verdict();
            if (!o.passed()) {
                failed++;
                String tail = o.verifyTail();
                if (!tail.isEmpty()) {
                    int bar = tail.lastIndexOf(" | ");
                    String last = bar < 0 ? tail : tail.substring(bar + 3);
                    verdict += ": " + Escape.of(last.length() > TAIL_CHARS ? last.substring(0, TAIL_CHARS) + "..." : last);
                }
            }
            sb.append(String.format(Locale.ROOT, "%4d %20d %-10s %8d %10d %10d%s  %s%n", o.number(), o.seed(), o.where(),
                    o.flushes(), o.discardedBytes(), o.keptBytes(),
                    files ? String.format(Locale.ROOT, " %6s", o.discardedNameChanges()) : "", verdict));
            if (!o.passed()) {
                List<String> lost = o.discarded();
                int shown = Math.min(lost.size(), DISCARDED_SHOWN);
                for (int i = 0; i < shown; i++) {
                    String more = i == shown - 1 && shown < lost.size()
                            ? " (and " + (lost.size() - shown) + " more, listed with --json)" : "";
                    sb.append("       discarded: ").append(Escape.of(lost.get(i))).append(more).append('\n');
                }
            }
        }
        sb.append(String.format(Locale.ROOT, "%d of %d cuts passed the verify, %d failed%n", outcomes.size() - failed,
                outcomes.size(), failed));
        for (CutOutcome o : outcomes) {
            if (!o.passed()) {
                sb.append("cut ").append(o.number()).append(" again: ").append(Escape.of(repeatLine(o))).append('\n');
            }
        }
        return sb.toString();
    }

    Document json(List<CutOutcome> outcomes, long first, Long dryFlushes) {
        List<Cut> list = new ArrayList<>(outcomes.size());
        int failed = 0;
        for (CutOutcome o : outcomes) {
            String repeat = null;
            if (!o.passed()) {
                failed++;
                repeat = repeatLine(o);
            }
            list.add(new Cut(o.number(), o.seed(), o.afterFlushes(), o.cutAt(), o.commandExit(), o.flushes(),
                    o.discardedBytes(), o.keptBytes(), o.verifyExit(), o.passed(), o.verifyTail(), o.failure(),
                    o.lost().isEmpty() ? null : o.lost(), o.discarded().isEmpty() ? null : o.discarded(), repeat));
        }
        return new Document(c.command, c.verify, c.disk.model.resolved().name().toLowerCase(Locale.ROOT),
                c.rules.jsonWord(c.disk.model.resolved()), c.disk.fs(),
                (int) (c.sizeBytes() >> 20), c.atomicBytes(), first,
                c.failFlush != null ? "fail-flush" : c.afterFlushes != null ? "after-flushes" : c.duringFlush != null ? "during-flush"
                        : c.sweep ? "sweep" : "at-random", c.failFlush,
                c.failFlush == null ? null : c.failOnce, c.failFlush == null ? null : c.failErrno().name(), dryFlushes, dryFlushes == null ? null : !c.noPowerOnCheck,
                list, outcomes.size() - failed, failed);
    }

    // The two records below are public, in a package-private class, only so that core's JSON writer may read
    // their components: each component is a field of --json, in this order.

    /**
     * {@code flushcheck powercut --json}.
     *
     * @param model              what the disks simulated: {@code block} or {@code file} (what auto chose)
     * @param rules              the file model's rules, {@code journaled} or {@code posix}; null on the block model,
     *                           which has its filesystem's
     * @param mode               {@code at-random}, {@code after-flushes} or {@code fail-flush}
     * @param failFlush          the command's flush that failed (and every one after it, unless {@code failOnce});
     *                           left out without {@code --fail-flush}, and so is {@code failOnce}; each cut's
     *                           {@code afterFlushes} is then 0: it waited for the command's exit
     * @param errno              what the drive failed the flush with ({@code EIO} unless {@code --errno} said
     *                           otherwise); left out without {@code --fail-flush}
     * @param flushesWithPowerOn the flushes of the run with the power on; null when the cuts came after a given flush
     * @param powerOnChecked     whether VERIFY ran (and passed) after the run with the power on; left out when
     *                           there was no such run
     */
    public record Document(List<String> command, String verify, String model, String rules, String fs, int sizeMiB, int atomicWriteBytes,
                           long seed,
                           String mode, @Json.LeftOutWhenNull Long failFlush, @Json.LeftOutWhenNull Boolean failOnce,
                           @Json.LeftOutWhenNull String errno,
                           Long flushesWithPowerOn, @Json.LeftOutWhenNull Boolean powerOnChecked, List<Cut> cuts,
                           int passed, int failed) {

        public Document {
            command = List.copyOf(command);
            cuts = List.copyOf(cuts);
        }
    }

    /**
     * One cut of {@link Document}; the fields of {@link CutOutcome}.
     *
     * @param lost      the file model's word on what only its rules lost (the POSIX rules' names that ext4, xfs and
     *                  btrfs keep; data only a syncfs or sync would have made durable); left out when there is none
     * @param discarded what the cut discarded, an operation an entry with the sync it missed (the file model's); left
     *                  out when it lists nothing
     * @param repeat    the command line that repeats this cut alone; only on a cut that failed
     */
    public record Cut(int cut, long seed, long afterFlushes, String cutAt, Integer commandExit, long flushes,
                      long discardedBytes, long keptBytes, Integer verifyExit, boolean passed, String verifyOutput,
                      String failure, @Json.LeftOutWhenNull String lost, @Json.LeftOutWhenNull List<String> discarded,
                      @Json.LeftOutWhenNull String repeat) {
    }
}

package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.DamagedBlock;
import io.flushcheck.powercut.BlockDamage;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code flushcheck powercut damage} prints of its checks: a line each (the block as {@code --block} takes it,
 * the outcome and its explanation), the counts of each outcome and the line that repeats each check that needs a
 * look alone; or every check in JSON.
 */
final class DamageOutput {

    private final PowerCutDamageCommand c;

    DamageOutput(PowerCutDamageCommand c) {
        this.c = c;
    }

    /** The command line that runs only {@code check}'s block, or null for the undamaged check. */
    String repeatLine(DamageCheck check) {
        if (check.block() == null) {
            return null;
        }
        List<String> line = new ArrayList<>(List.of("flushcheck", "powercut", "damage"));
        if (c.disk.model != DiskModel.AUTO || c.disk.model.resolved() == DiskModel.FILE) {
            line.addAll(List.of("--model", c.disk.model.resolved().name().toLowerCase(Locale.ROOT)));
        }
        if (c.rules.rules != FileRules.JOURNALED) {
            line.addAll(List.of("--rules", c.rules.rules.word()));
        }
        if (c.disk.fs != null) {
            line.addAll(List.of("--fs", c.disk.fs));
        }
        if (c.disk.sizeMib != null) {
            line.addAll(List.of("--size-mib", String.valueOf(c.disk.sizeMib)));
        }
        if (c.timeout != null) {
            line.addAll(List.of("--timeout", String.valueOf(c.timeout)));
        }
        line.addAll(List.of("--seed", String.valueOf(c.seed()), "--block", check.block().toString(), "--verify", c.verify,
                "--"));
        line.addAll(c.command);
        StringBuilder sb = new StringBuilder();
        for (String a : line) {
            sb.append(sb.length() == 0 ? "" : " ").append(ProgramCuts.shellWord(a));
        }
        return sb.toString();
    }

    /** The outcomes that need a look: each gets its repeat line after the counts. */
    private static boolean needsALook(DamageCheck.Outcome o) {
        return o.silent() || o == DamageCheck.Outcome.CRASHED || o == DamageCheck.Outcome.HUNG;
    }

    /**
     * The report; {@code sites} is the number of blocks listed to damage, -1 when {@code --block} named the one.
     */
    String text(List<DamageCheck> checks, int sites) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "damaged blocks of what the command left at a power cut on %s, seed %d: %s%n",
                c.disks(), c.seed(), sites < 0 ? "the one --block names"
                        : sites + " blocks of " + c.blockBytes() + " bytes to damage, " + kinds() + ", spread evenly"));
        for (DamageCheck check : checks) {
            sb.append(String.format(Locale.ROOT, "check %d: %s: %s: %s%n", check.number(), Escape.of(check.site()),
                    check.outcome().words(), Escape.of(check.explanation())));
        }
        Map<DamageCheck.Outcome, Integer> counts = counts(checks);
        List<String> parts = new ArrayList<>();
        counts.forEach((o, n) -> parts.add(n + " " + o.words()));
        sb.append(checks.size()).append(" checks: ").append(String.join(", ", parts)).append('\n');
        for (DamageCheck check : checks) {
            if (needsALook(check.outcome())) {
                sb.append("check ").append(check.number()).append(" again: ").append(Escape.of(repeatLine(check)))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code bit rot and zeroed}. */
    private String kinds() {
        List<String> words = new ArrayList<>();
        for (BlockDamage k : c.kinds()) {
            words.add(k.words());
        }
        return String.join(" and ", words);
    }

    /** Each outcome that occurred, with its count, in the outcomes' order. */
    static Map<DamageCheck.Outcome, Integer> counts(List<DamageCheck> checks) {
        Map<DamageCheck.Outcome, Integer> counts = new EnumMap<>(DamageCheck.Outcome.class);
        for (DamageCheck check : checks) {
            counts.merge(check.outcome(), 1, Integer::sum);
        }
        return counts;
    }

    Document json(List<DamageCheck> checks, int sites) {
        List<Check> list = new ArrayList<>();
        int silent = 0;
        for (DamageCheck check : checks) {
            DamagedBlock b = check.block();
            silent += check.outcome().silent() ? 1 : 0;
            list.add(new Check(check.number(), b == null ? null : b.toString(), b == null ? null : b.file(),
                    b == null ? null : b.offset(), b == null ? null : b.length(),
                    b == null ? null : b.kind().option(), b == null || b.kind() != BlockDamage.BIT_ROT ? null : b.seed(),
                    b == null || b.kind() != BlockDamage.MISDIRECTED_WRITE ? null : b.target(), check.done(),
                    check.outcome().word(), check.explanation(), check.verifyExit(), check.verifyTail(),
                    check.acknowledged(), check.returned(), repeatLine(check)));
        }
        Map<String, Integer> outcomes = new LinkedHashMap<>();
        counts(checks).forEach((o, n) -> outcomes.put(o.word(), n));
        List<String> kinds = new ArrayList<>();
        for (BlockDamage k : c.kinds()) {
            kinds.add(k.option());
        }
        DiskModel resolved = c.disk.model.resolved();
        return new Document(c.command, c.verify, resolved.name().toLowerCase(Locale.ROOT), c.rules.jsonWord(resolved),
                resolved == DiskModel.FILE ? null : c.disk.fs(), (int) (c.sizeBytes() >> 20), c.seed(),
                sites < 0 ? null : c.blockBytes(), sites < 0 ? null : kinds, sites < 0 ? null : sites, list, outcomes,
                silent);
    }

    // The two records below are public, in a package-private class, only so that core's JSON writer may read
    // their components: each component is a field of --json, in this order.

    /**
     * {@code flushcheck powercut damage --json}.
     *
     * @param rules      the file model's rules; null on the block model
     * @param fs         the block model's filesystem; null on the file model
     * @param seed       the seed of the cut and of the sweep's bit rot
     * @param blockBytes the blocks' size; left out with {@code --block}, as are {@code kinds} and {@code blocks}
     * @param blocks     the blocks listed to damage
     * @param outcomes   each outcome that occurred, with its count
     * @param silent     the checks that were silent corruption or silent loss
     */
    public record Document(List<String> command, String verify, String model, String rules, String fs, int sizeMiB,
                           long seed, @Json.LeftOutWhenNull Integer blockBytes, @Json.LeftOutWhenNull List<String> kinds,
                           @Json.LeftOutWhenNull Integer blocks, List<Check> checks, Map<String, Integer> outcomes,
                           int silent) {

        public Document {
            command = List.copyOf(command);
            checks = List.copyOf(checks);
        }
    }

    /**
     * One check of {@link Document}: the block (null on check 0, which damaged nothing, and so are its parts), what
     * was done, the outcome ({@code intact}, {@code detected}, {@code silent-corruption}, {@code silent-loss},
     * {@code crashed}, {@code hung}, {@code passed}, {@code not-done}) and its explanation.
     *
     * @param blockSeed the seed of the flipped bit; left out but for bit rot
     * @param target    the byte of the file where a misdirected write's bytes land; left out but for misdirected writes
     * @param returned  the records VERIFY wrote to $FLUSHCHECK_READ; null when it wrote no such file
     * @param repeat    the command line that runs only this check; null on check 0
     */
    public record Check(int check, String block, String file, Long offset, Integer length, String kind,
                        @Json.LeftOutWhenNull Long blockSeed, @Json.LeftOutWhenNull Long target, String done, String outcome, String explanation,
                        Integer verifyExit, String verifyOutput, int acknowledged, Integer returned, String repeat) {
    }
}

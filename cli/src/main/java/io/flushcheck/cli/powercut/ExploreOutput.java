package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.DataFault;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.FileRules;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@code flushcheck powercut --explore} prints: a few lines a person reads, or every state in JSON. */
final class ExploreOutput {

    /** The failing states shown in the text, fewest writes lost first; the JSON has them all. */
    static final int FAILING_SHOWN = 3;
    /** The lines of a failing state's explanation shown under it in the text. */
    static final int EXPLANATION_SHOWN = 4;

    private ExploreOutput() {
    }

    /**
     * The lines a person reads.
     *
     * @param disks   what the disk was: {@code ext4 (256 MiB)}, or {@code the file model (256 MiB)}
     * @param damaged whether --damage-blocks asked for damaged checks: their line is printed then, even of none
     */
    static String text(String disks, DiskModel model, ProgramStates.Recorded recorded, CrashStateReport report,
                       boolean damaged) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "crash states of one run on %s: the command made %d flushes, %s in %d"
                        + " epochs, %d acknowledgements%n", disks, recorded.flushes(), writes(model, recorded.writes()),
                recorded.epochs(), recorded.acknowledgements()));
        // With damage the states' own count is of them undamaged: the JSON's "failed" counts a state failing any check.
        sb.append(String.format(Locale.ROOT, "%d states checked in %.1f s, %d failing%s, %d duplicates checked once, %s%n",
                report.checked(), report.seconds(), report.failures().stream().filter(f -> f.damage() == null).count(),
                damaged ? " as the crash left them" : "",
                report.duplicates(),
                report.leftOut() == 0 ? "none left out by the bound of " + report.maxStates()
                        : report.leftOut() + " left out by the bound of " + report.maxStates()));
        if (damaged || report.damagedChecks() > 0 || report.notPlaced() > 0) {
            long failingDamaged = report.failures().stream().filter(f -> f.damage() != null).count();
            sb.append(String.format(Locale.ROOT, "%d more checks with a damaged block, %d failing%s%n",
                    report.damagedChecks(), failingDamaged, report.notPlaced() == 0 ? ""
                            : ", " + report.notPlaced() + (report.notPlaced() == 1 ? " damaged block" : " damaged blocks")
                                    + " not placed (not checked)"));
        }
        List<CrashStateReport.Failure> failures = report.failures();
        for (int i = 0; i < Math.min(FAILING_SHOWN, failures.size()); i++) {
            CrashStateReport.Failure f = failures.get(i);
            sb.append("failed: ").append(Escape.of(f.what())).append(": ").append(Escape.of(f.message())).append('\n');
            if (f.damage() != null) {
                sb.append("    the damaged block: ").append(Escape.of(f.damage().toString())).append('\n');
            }
            List<String> lines = f.explanation();
            for (int j = 0; j < Math.min(EXPLANATION_SHOWN, lines.size()); j++) {
                sb.append("    ").append(Escape.of(lines.get(j))).append('\n');
            }
            if (lines.size() > EXPLANATION_SHOWN) {
                sb.append("    and ").append(lines.size() - EXPLANATION_SHOWN).append(" more, listed with --json\n");
            }
        }
        if (failures.size() > FAILING_SHOWN) {
            sb.append("and ").append(failures.size() - FAILING_SHOWN).append(report.damagedChecks() > 0
                    ? " more failing checks, listed with --json\n" : " more failing states, listed with --json\n");
        }
        return sb.toString();
    }

    /**
     * {@code n writes}, or on the file model, whose recording holds operations (names, writes, truncations,
     * permission bits), {@code n operations}.
     */
    static String writes(DiskModel model, int n) {
        return n + (model == DiskModel.FILE ? (n == 1 ? " operation" : " operations") : (n == 1 ? " write" : " writes"));
    }

    /** The word the JSON's {@code "model"} says: {@code block} or {@code file}. */
    static String word(DiskModel model) {
        return model.name().toLowerCase(Locale.ROOT);
    }

    static Document json(List<String> command, String verify, DiskModel model, FileRules rules, String fs, int sizeMiB,
                         int atomicWriteBytes, ReplayOutput.Draw draw, Damage damage, ProgramStates.Recorded recorded,
                         CrashStateReport report, String recording) {
        // A state's failing damaged checks follow its own failure in the report's list: each under its state here.
        Map<String, List<DamagedCheck>> damaged = new HashMap<>();
        for (CrashStateReport.Failure f : report.failures()) {
            if (f.damage() != null) {
                damaged.computeIfAbsent(f.state(), k -> new ArrayList<>()).add(new DamagedCheck(f.damage().toString(),
                        f.done(), f.message()));
            }
        }
        List<State> states = new ArrayList<>();
        int failed = 0;
        for (CrashStateReport.State s : report.states()) {
            CrashStateReport.Failure f = s.failure() == null || s.failure().damage() != null ? null : s.failure();
            states.add(new State(s.state(), s.lost(), s.passed(), f == null ? null : f.message(),
                    f == null || f.explanation().isEmpty() ? null : f.explanation(), damaged.get(s.state())));
            failed += s.checked() && !s.passed() ? 1 : 0;
        }
        return new Document(command, verify, word(model), rules == null ? null : rules.word(), fs, sizeMiB,
                atomicWriteBytes, "explore", recording, report.maxStates(), draw, damage,
                recorded.commandExit(), recorded.flushes(), recorded.writes(), recorded.epochs(),
                recorded.acknowledgements(), report.checked(), report.checked() - failed, failed,
                report.duplicates(), report.leftOut(), report.seconds(), damage == null ? null : report.damagedChecks(),
                damage == null ? null : report.notPlaced(), states);
    }

    /**
     * {@code --damage-blocks}: the damaged blocks each state is checked with besides.
     *
     * @param blocks     the most damaged blocks a state
     * @param kinds      {@code bit-rot}, {@code zeroed}
     * @param blockBytes the bytes of a block
     * @param seed       the seed of the bits flipped
     */
    public record Damage(int blocks, List<String> kinds, int blockBytes, long seed) {

        public Damage {
            kinds = List.copyOf(kinds);
        }

        /** The damage of {@code blocks} blocks of {@code kinds}, as the JSON names them. */
        static Damage of(int blocks, List<DataFault.Kind> kinds, int blockBytes, long seed) {
            return new Damage(blocks, kinds.stream().map(k -> k == DataFault.Kind.ZEROED ? "zeroed" : "bit-rot").toList(),
                    blockBytes, seed);
        }

        List<DataFault.Kind> kindsOf() {
            return kinds.stream().map(k -> k.equals("zeroed") ? DataFault.Kind.ZEROED : DataFault.Kind.BIT_ROT).toList();
        }
    }

    /**
     * A failing check of a state with a damaged block.
     *
     * @param damage  the block, as {@code flushcheck powercut damage --block} takes it
     * @param done    what the damage changed: {@code bit 3 of byte 8200 of db-wal flipped}
     * @param failure what the verify said
     */
    public record DamagedCheck(String damage, String done, String failure) {
    }

    // The records below are public, in a package-private class, only so that core's JSON writer may read their
    // components: each component is a field of --json, in this order.

    /**
     * {@code flushcheck powercut --explore --json}.
     *
     * @param model           {@code block} or {@code file}
     * @param rules           the file model's rules, {@code journaled} or {@code posix}; null on the block model
     * @param fs              the filesystem each state was mounted as; {@code files} on the file model
     * @param atomicWriteBytes the bytes the drive wrote atomically; 1 on the file model
     * @param recording       with --record, the recording's id (the SHA-256 of its manifest)
     * @param maxStates       the bound on the states checked
     * @param draw            with --draw, the states drawn beyond those enumerated and their seed
     * @param damage          with --damage-blocks, the damaged blocks each state is checked with besides
     * @param flushes         the flushes the command made while it was recorded
     * @param writes          the writes the drive received then; on the file model, the operations the tree did
     * @param epochs          the runs of writes between two flushes (and after the last)
     * @param acknowledgements the lines the command wrote to {@code FLUSHCHECK_ACKS}
     * @param duplicates      states that left the same image as one checked, not checked again
     * @param leftOut         distinct states beyond the bound, not checked
     * @param damagedChecks   with --damage-blocks, the checks of states with a damaged block
     * @param notPlaced       with --damage-blocks, the damaged blocks a state listed and had no place for, not checked
     * @param states          every state checked, fewest writes lost first
     */
    public record Document(List<String> command, String verify, String model, String rules, String fs, int sizeMiB,
                           int atomicWriteBytes, String mode, @Json.LeftOutWhenNull String recording, int maxStates,
                           @Json.LeftOutWhenNull ReplayOutput.Draw draw, @Json.LeftOutWhenNull Damage damage,
                           int commandExit, long flushes, int writes,
                           int epochs, int acknowledgements, int checked, int passed, int failed, int duplicates,
                           int leftOut, double seconds, @Json.LeftOutWhenNull Long damagedChecks,
                           @Json.LeftOutWhenNull Long notPlaced, List<State> states) {

        public Document {
            command = List.copyOf(command);
            states = List.copyOf(states);
        }
    }

    /**
     * One state of {@link Document}.
     *
     * @param state       what it kept and lost of its epoch's writes, and where they were
     * @param lost        the writes of its epoch that did not survive whole
     * @param failure     what the verify said (its exit and last lines), or why it did not run; only when it failed
     * @param explanation what the state lost by name, with the sync that would have kept it; only on the first
     *                    failing states
     * @param damaged     its failing checks with a damaged block (--damage-blocks); only where there are some
     */
    public record State(String state, int lost, boolean passed, @Json.LeftOutWhenNull String failure,
                        @Json.LeftOutWhenNull List<String> explanation, @Json.LeftOutWhenNull List<DamagedCheck> damaged) {
    }
}

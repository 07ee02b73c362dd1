package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.CrashStateReport;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.report.Json;
import io.flushcheck.text.Escape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code flushcheck powercut --replay} prints, a few lines or every state in JSON; {@link ReplayDocumentReader}
 * reads that JSON back for {@code flushcheck powercut merge}.
 */
final class ReplayOutput {

    static final String MODE = "replay";

    private ReplayOutput() {
    }

    static String text(Path saved, Shard shard, CrashStates states, CrashStateReport report) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "crash states of the recording in %s (%s, %s in %d epochs, %d"
                        + " acknowledgements), recording %s%s%n", Escape.of(saved.toString()),
                states.model() == DiskModel.FILE ? "the file model" : states.fs(),
                ExploreOutput.writes(states.model(), states.writes()), states.epochs(),
                states.acknowledged().all().size(), states.recordingId(), shard == null ? "" : ", shard " + shard));
        sb.append(String.format(Locale.ROOT, "%d states checked in %.1f s, %d failing, %d duplicates checked once, %s%s%n",
                report.checked(), report.seconds(), report.failing(), report.duplicates(),
                report.leftOut() == 0 ? "none left out by the bound of " + report.maxStates()
                        : report.leftOut() + " left out by the bound of " + report.maxStates(),
                report.otherShards() == 0 ? "" : ", " + report.otherShards() + " left to the other shards"));
        List<CrashStateReport.Failure> failures = report.failures();
        for (int i = 0; i < Math.min(ExploreOutput.FAILING_SHOWN, failures.size()); i++) {
            CrashStateReport.Failure f = failures.get(i);
            sb.append("failed: ").append(Escape.of(f.state())).append(": ").append(Escape.of(f.message())).append('\n');
            List<String> lines = f.explanation();
            for (int j = 0; j < Math.min(ExploreOutput.EXPLANATION_SHOWN, lines.size()); j++) {
                sb.append("    ").append(Escape.of(lines.get(j))).append('\n');
            }
        }
        if (failures.size() > ExploreOutput.FAILING_SHOWN) {
            sb.append("and ").append(failures.size() - ExploreOutput.FAILING_SHOWN)
                    .append(" more failing states, listed with --json\n");
        }
        return sb.toString();
    }

    static Document json(String verify, Shard shard, Draw draw, CrashStates states, CrashStateReport report) {
        List<State> out = new ArrayList<>();
        for (CrashStateReport.State s : report.states()) {
            CrashStateReport.Failure f = s.failure();
            out.add(new State(s.state(), s.lost(), s.checked(), s.passed(), f == null ? null : f.message(),
                    f == null || f.explanation().isEmpty() ? null : f.explanation()));
        }
        return new Document(MODE, states.recordingId(), shard == null ? null : shard.toString(), verify,
                ExploreOutput.word(states.model()), states.rules() == null ? null : states.rules().word(),
                states.fs(), states.atomicWriteBytes(), report.maxStates(), draw, states.writes(), states.epochs(),
                states.acknowledged().all().size(), report.checked(), report.checked() - report.failing(),
                report.failing(), report.otherShards(), report.duplicates(), report.leftOut(), report.seconds(), out);
    }

    // The records below are public, in a package-private class, only so that core's JSON writer may read their
    // components: each component is a field of --json, in this order.

    /**
     * {@code flushcheck powercut --replay --json}, and what {@code flushcheck powercut merge} makes of shards' ones.
     *
     * @param recording   the recording's id: the SHA-256 of its manifest, the same in every shard's document
     * @param shard       {@code I/N} with --shard; left out where every state was checked (merged ones too)
     * @param model       the model the recording was made on: {@code block} or {@code file}
     * @param rules       the file model's rules the recording was made under, {@code journaled} or {@code posix};
     *                    null on the block model
     * @param fs          the filesystem each state was mounted as; {@code files} on the file model
     * @param writes      the writes the drive received; on the file model, the operations the tree did
     * @param checked     the states checked here
     * @param otherShards the states within the bound another shard checks, not checked here
     * @param duplicates  states that left the same image as one checked, not checked again
     * @param leftOut     distinct states beyond the bound, not checked
     * @param seconds     the time the checking took; a merged document's is the sum of its shards'
     * @param states      every state within the bound, fewest writes lost first
     */
    public record Document(String mode, String recording, @Json.LeftOutWhenNull String shard, String verify,
                           String model, String rules, String fs, int atomicWriteBytes, int maxStates,
                           @Json.LeftOutWhenNull Draw draw, int writes, int epochs,
                           int acknowledgements, int checked, int passed, int failed, int otherShards, int duplicates,
                           int leftOut, double seconds, List<State> states) {

        public Document {
            states = List.copyOf(states);
        }
    }

    /**
     * With {@code --draw}: the most states drawn beyond those enumerated, and the seed they were drawn from.
     */
    public record Draw(int count, long seed) {

        /** The draw a command line asked for: none without {@code --draw}. */
        static Draw of(Integer count, Long seed) {
            return count == null ? null : new Draw(count, seed == null ? DEFAULT_SEED : seed);
        }

        /** The seed of {@code --draw} without {@code --seed}: a fixed one, so that shards draw alike unasked. */
        static final long DEFAULT_SEED = 1;
    }

    /**
     * One state of {@link Document}.
     *
     * @param checked     false for a state another shard checks: neither passed nor failed here
     * @param failure     what the verify said, or why it did not run; only when it failed
     * @param explanation what the state lost by name, with the sync that would have kept it; only on the first
     *                    failing states
     */
    public record State(String state, int lost, boolean checked, boolean passed, @Json.LeftOutWhenNull String failure,
                        @Json.LeftOutWhenNull List<String> explanation) {
    }
}

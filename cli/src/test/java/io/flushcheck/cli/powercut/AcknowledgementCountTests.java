package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code flushcheck powercut explore} on either model counts each acknowledgement from the flushes completed when
 * the program wrote it, however late the line is read: a program's next sync often comes well within the millisecond
 * the file of acknowledgements is polled in, and a line counted from that sync would let the states between the two
 * go unchecked for it.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
class AcknowledgementCountTests {

    private static final int RUNS = 5;

    @TempDir
    Path tmp;

    private PythonStore python;

    /** The store without its directory's sync, explored with {@code options}: its JSON. */
    private Map<String, Object> explore(List<String> options) {
        List<String> args = new ArrayList<>(List.of("powercut", "explore", "--json"));
        args.addAll(options);
        args.addAll(List.of("--verify", PythonStore.PYTHON + " " + python.check() + " {dir} {acks}", "--", "sh", "-c",
                "exec " + PythonStore.PYTHON + " " + python.store() + " \"$1\" \"$FLUSHCHECK_ACKS\" nodirsync 4",
                "store", "{dir}"));
        Run r = run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        return KeptRecording.json(r.out());
    }

    private static List<List<Object>> outcomes(Map<String, Object> json) {
        return KeptRecording.states(json).stream().map(s -> List.of(s.get("state"), s.get("passed"))).toList();
    }

    /**
     * The store without its directory's sync acknowledges each of its 4 values right after the sync of its file, and
     * then writes and syncs the next at once: each of the 4 states after a sync that lost the rename fails, in every
     * run.
     */
    @Test
    void theStoreFailsTheSameStatesInEveryRun() throws IOException {
        python = PythonStore.forFileModel(tmp);
        List<List<Object>> first = null;
        for (int i = 1; i <= RUNS; i++) {
            Map<String, Object> json = explore(List.of("--model", "file"));
            assertThat(json.get("failed")).as("run " + i + ": a failing state after each of the 4 syncs")
                    .isEqualTo(4L);
            if (first == null) {
                first = outcomes(json);
            } else {
                assertThat(outcomes(json)).as("run " + i + " against run 1").isEqualTo(first);
            }
        }
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * On ext4 the same store fails, in each of two runs, states that lost each of its 4 acknowledged values: each
     * acknowledgement is required from the flushes of its file's sync on, not from those of the next value's. (Two
     * runs are two recordings, whose drives count their flushes apart: their states are not compared by name.)
     */
    @Test
    @ResourceLock(SimulatedPowerLoss.LOCK)
    void onExt4EachRunFailsStatesThatLostEachAcknowledgedValue() throws IOException {
        python = PythonStore.in(tmp);
        for (int i = 1; i <= 2; i++) {
            Map<String, Object> json = explore(List.of());
            for (int v = 1; v <= 4; v++) {
                String lost = "acknowledged value " + v + ", found";
                assertThat(KeptRecording.states(json)).as("run " + i + ": a state that lost value " + v)
                        .anyMatch(s -> String.valueOf(s.get("failure")).contains(lost));
            }
        }
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * A shell program that acknowledges right before its next sync: the acknowledgement counts from the sync before
     * it, and every state after that sync requires it (the verify fails whenever anything is required), those that
     * keep the write before it and those that lose it.
     */
    @Test
    void anAcknowledgementWrittenRightBeforeTheNextSyncCountsFromTheSyncBeforeIt() throws IOException {
        PythonStore.forFileModel(tmp); // the file model's requirements
        Path program = Files.writeString(tmp.resolve("ack.sh"), """
                : > "$1/x"
                sync "$1/x"
                printf 1 > "$1/x"
                echo 1 >> "$FLUSHCHECK_ACKS"
                sync "$1/x"
                printf 2 > "$1/x"
                echo 2 >> "$FLUSHCHECK_ACKS"
                sync "$1/x"
                """);
        for (int i = 1; i <= RUNS; i++) {
            Run r = run("powercut", "explore", "--model", "file", "--json", "--verify",
                    "test ! -s {acks} || test -e {dir}/nothing", "--", "sh", program.toString(), "{dir}");
            assertThat(r.exit()).as(r.err()).isEqualTo(1);
            Map<String, Object> json = KeptRecording.json(r.out());
            assertThat(json.get("acknowledgements")).isEqualTo(2L);
            List<Map<String, Object>> states = KeptRecording.states(json);
            assertThat(states).as("run " + i + ": the states after the first sync")
                    .filteredOn(s -> ((String) s.get("state")).startsWith("after sync 1,")).isNotEmpty()
                    .allMatch(s -> Boolean.FALSE.equals(s.get("passed")), "requiring acknowledgement 1");
            assertThat(states).as("run " + i + ": the states before it")
                    .filteredOn(s -> ((String) s.get("state")).startsWith("before the first sync")).isNotEmpty()
                    .allMatch(s -> Boolean.TRUE.equals(s.get("passed")), "requiring nothing");
        }
        PowerCutCommandTests.assertNothingLeft();
    }
}

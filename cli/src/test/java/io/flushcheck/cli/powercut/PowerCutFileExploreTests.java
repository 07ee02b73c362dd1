package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flushcheck powercut --explore --model file}, without root: the Python store runs once on the file model,
 * whose tree records its operations, and the verify runs on every crash state of that run, each written out as a
 * directory; the recording is kept with {@code --record} and checked again by {@code --replay}, whole and by two
 * shards whose merge equals the replay ({@link KeptRecording}, as {@link PowerCutShardTests} for the block model).
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
class PowerCutFileExploreTests {

    private static final List<String> FILE_MODEL = List.of("--model", "file");

    @TempDir
    Path tmp;

    private PythonStore python;
    private KeptRecording kept;

    @BeforeEach
    void needs() throws IOException {
        python = PythonStore.forFileModel(tmp);
        kept = new KeptRecording(tmp, FILE_MODEL, python.store(), python.check());
    }

    @Test
    void anHonestStorePassesEveryCrashStateOfOneRun() {
        Path saved = tmp.resolve("honest");
        Run r = kept.record(saved, "honest");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).startsWith("crash states of one run on the file model (256 MiB): the command made ")
                .containsPattern(" \\d+ operations in \\d+ epochs, 4 acknowledgements\n")
                .containsPattern("[1-9]\\d* states checked in [\\d.]+ s, 0 failing, \\d+ duplicates checked once,"
                        + " none left out by the bound of 1000\n")
                .doesNotContain("failed:");
        assertThat(r.err()).startsWith("flushcheck powercut: the file model: files over FUSE, journaled rules")
                .containsPattern("flushcheck powercut: \\[(\\d+)/\\1\\] crash states checked\n");
        PowerCutCommandTests.assertNothingLeft();

        Run drawn = run("powercut", "--replay", saved.toString(), "--draw", "3", "--verify", kept.verify());
        assertThat(drawn.exit()).as(drawn.err()).isEqualTo(2);
        assertThat(drawn.err()).contains("--draw draws states of a block model's recording, and this one is the file"
                + " model's");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aStoreWithoutTheDirectorysSyncFailsAStateNamingTheRenameItLost() {
        Run r = run(DocumentedCommand.of(PowerCutFileExploreTests.class, "explore-files")
                .with("python3", PythonStore.PYTHON).with("check.py", python.check()).with("store.py", python.store())
                .args());
        System.out.println(r.out());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).containsPattern("\\d+ states checked in [\\d.]+ s, [1-9]\\d* failing")
                .as("the rename that made the acknowledged value current, lost with no sync after it")
                .containsPattern("failed: after sync \\d+[^\n]*: exit 1: acknowledged value \\d, found \\d+\n"
                        + "    compared with its epoch's state that kept every operation, it lost:\n"
                        + "    rename value.tmp -> value, no sync after it\n");
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void aKeptRecordingReplaysWholeAndInTwoShardsToTheOutcomesOfTheExplorationAndIsRefusedOnceChanged()
            throws Exception {
        Map<String, Object> replayed = kept.twoShardsInTwoProcessesCheckTheStatesOneReplayChecksAndMergeIntoItsReport();
        assertThat(replayed.get("model")).isEqualTo("file");
        assertThat(replayed.get("rules")).isEqualTo("journaled");
        assertThat(replayed.get("fs")).isEqualTo("files");
        Path saved = tmp.resolve("recording");
        assertThat(Files.readString(saved.resolve("manifest.txt"))).startsWith("flushcheck recording 3\nmodel file\n");
        assertThat(saved.resolve("base.img")).doesNotExist();
        kept.aChangedLogIsRefused(saved);
    }
}

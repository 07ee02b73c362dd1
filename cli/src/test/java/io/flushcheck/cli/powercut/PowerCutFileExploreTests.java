package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.FileRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).containsPattern("\\d+ states checked in [\\d.]+ s, [1-9]\\d* failing")
                .as("the rename that made the acknowledged value current, lost with no sync after it")
                .containsPattern("failed: after sync \\d+[^\n]*: exit 1: acknowledged value \\d, found \\d+\n"
                        + "    compared with its epoch's state that kept every operation, it lost:\n"
                        + "    rename value.tmp -> value, no sync after it\n");
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * The honest store passes every state, and fails where its value is zeroed: each failing check names its state
     * and its damage, in the text and in the JSON, under its state.
     */
    @Test
    void damagedBlocksAreCheckedInEveryStateAndEachFailureNamesItsStateAndItsDamage() {
        Run r = run(DocumentedCommand.of(PowerCutFileExploreTests.class, "explore-damage")
                .with("python3", PythonStore.PYTHON).with("check.py", python.check()).with("store.py", python.store())
                .args());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).as("undamaged, the honest store passes every state")
                .containsPattern("\\d+ states checked in [\\d.]+ s, 0 failing as the crash left them, ")
                .containsPattern("\n[1-9]\\d* more checks with a damaged block, [1-9]\\d* failing\n")
                .containsPattern("failed: after sync \\d+[^\n]*, with bytes 0\\+8 of value zeroed: exit 1: acknowledged"
                        + " value \\d, found an unreadable file\n    the damaged block: zeroed in value bytes 0\\+512\n");
        assertThat(r.err()).containsPattern("flushcheck powercut: \\d+ crash states checked, and [1-9]\\d* times with a"
                + " damaged block\n");
        PowerCutCommandTests.assertNothingLeft();

        List<String> json = new java.util.ArrayList<>(List.of(DocumentedCommand.of(PowerCutFileExploreTests.class,
                "explore-damage").with("python3", PythonStore.PYTHON).with("check.py", python.check())
                .with("store.py", python.store()).args()));
        json.add(json.indexOf("--"), "--json");
        Run j = run(json.toArray(String[]::new));
        assertThat(j.exit()).as(j.err()).isEqualTo(1);
        Map<String, Object> doc = KeptRecording.json(j.out());
        assertThat(doc.get("damage")).isEqualTo(Map.of("blocks", 2L, "kinds", List.of("zeroed"), "blockBytes", 512L,
                "seed", 1L));
        assertThat(((Number) doc.get("damagedChecks")).longValue()).isPositive();
        List<Map<String, Object>> damaged = KeptRecording.states(doc).stream().filter(s -> s.containsKey("damaged"))
                .toList();
        assertThat(damaged).as("states failing with their value zeroed").isNotEmpty()
                .allMatch(s -> Boolean.FALSE.equals(s.get("passed")) && !s.containsKey("failure"), "failing damaged only");
        Map<?, ?> check = (Map<?, ?>) ((List<?>) damaged.get(0).get("damaged")).get(0);
        assertThat(check.get("damage")).isEqualTo("zeroed in value bytes 0+512");
        assertThat(check.get("done")).isEqualTo("bytes 0+8 of value zeroed");
        assertThat(String.valueOf(check.get("failure"))).matches("exit 1: acknowledged value \\d, found an unreadable file");
        assertThat(((Number) doc.get("failed")).intValue()).isEqualTo(damaged.size());

        Run refused = run("powercut", "--model", "file", "--kinds", "zeroed", "--verify", "true {dir}", "--", "true", "{dir}");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("--kinds says how --damage-blocks N damages the states");
        Run lying = run("powercut", "--model", "file", "--explore", "--damage-blocks", "2", "--kinds", "zeroed,lost-write",
                "--verify", "true {dir}", "--", "true", "{dir}");
        assertThat(lying.exit()).isEqualTo(2);
        assertThat(lying.err()).contains("--kinds with --damage-blocks takes bit-rot and zeroed")
                .contains("flushcheck powercut damage --kinds lost-write");
    }

    /**
     * On two workers the file model's explore prints what one worker prints of the same recording, but for the time:
     * the command line the guide shows, recorded, and its recording replayed on one worker.
     */
    @Test
    void twoWorkersPrintWhatOneWorkerPrints() {
        Path saved = tmp.resolve("recording");
        Run two = run(DocumentedCommand.of(PowerCutFileExploreTests.class, "explore-files-workers")
                .with("python3", PythonStore.PYTHON).with("check.py", python.check()).with("store.py", python.store())
                .adding("--record", saved.toString()).args());
        Run one = run("powercut", "replay", saved.toString(), "--workers", "1", "--verify",
                PythonStore.PYTHON + " " + python.check() + " {dir} {acks}");
        assertThat(two.exit()).as(two.err()).isEqualTo(1);
        assertThat(one.exit()).as(one.err()).isEqualTo(1);
        assertThat(checked(two.out())).isEqualTo(checked(one.out())).anyMatch(l -> l.startsWith("failed: "));
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * The lines of a report that say what was checked and what failed, without the time it took. (The explanations
     * below a failure are left out: an explore's may lack the note on what the file model cannot see that a replay
     * of its recording adds.)
     */
    private static List<String> checked(String out) {
        return out.lines().filter(l -> !l.startsWith("crash states of") && !l.startsWith("replay") && !l.startsWith(" "))
                .map(l -> l.replaceAll("states checked in [\\d.]+ s", "states checked in - s")).toList();
    }

    /**
     * A mixed workload (a value replaced by a rename of a copy synced on even turns only, a log appended to and
     * never synced, hard links, a permission change and a new directory), recorded under each rule on two workers
     * and replayed on one and on two: the same document but for the time, the explore's states, VERIFY running
     * twice at once on two workers and once at a time on one. Nothing is left.
     */
    @ParameterizedTest
    @EnumSource(FileRules.class)
    void aMixedWorkloadReplaysOnTwoWorkersToTheDocumentOfOne(FileRules rules) throws Exception {
        Path mixed = Files.writeString(tmp.resolve("mixed.sh"), """
                d=$1
                mkdir "$d/logs"
                for i in 1 2 3 4 5 6; do
                    printf 'value %d\n' "$i" > "$d/value.tmp"
                    if [ $((i % 2)) = 0 ]; then sync "$d/value.tmp"; fi
                    mv "$d/value.tmp" "$d/value"
                    sync "$d"
                    printf 'entry %d\n' "$i" >> "$d/logs/log"
                    if [ $((i % 3)) = 0 ]; then
                        ln "$d/logs/log" "$d/logs/link-$i"
                        chmod 600 "$d/logs/log"
                        sync "$d/logs"
                    fi
                    echo "$i" >> "$FLUSHCHECK_ACKS"
                done
                """);
        Path saved = tmp.resolve("recording-" + rules.word());
        Run recorded = run("powercut", "--explore", "--model", "file", "--rules", rules.word(), "--workers", "2",
                "--record", saved.toString(), "--json", "--verify", kept.verify(), "--", "sh", mixed.toString(),
                "{dir}");
        assertThat(recorded.exit()).as(recorded.err()).isEqualTo(1);
        Path running = Files.createDirectories(tmp.resolve("running"));
        Path seen = tmp.resolve("seen");
        Path counting = Files.writeString(tmp.resolve("counting.sh"), """
                mine=$(mktemp "%1$s/XXXXXX")
                ls "%1$s" | wc -l >> "%2$s"
                sleep 0.2
                rm "$mine"
                exec "$@"
                """.formatted(running, seen));
        String verify = "sh " + counting + " " + kept.verify();
        Run one = run("powercut", "replay", saved.toString(), "--json", "--workers", "1", "--verify", verify);
        assertThat(one.exit()).as(one.err()).isEqualTo(1);
        assertThat(Files.readAllLines(seen)).as("VERIFY runs at once on one worker").containsOnly("1");
        Files.delete(seen);
        Run two = run("powercut", "replay", saved.toString(), "--json", "--workers", "2", "--verify", verify);
        assertThat(two.exit()).as(two.err()).isEqualTo(1);
        assertThat(Files.readAllLines(seen)).as("VERIFY runs at once on two workers").contains("2");
        Map<String, Object> alone = new LinkedHashMap<>(KeptRecording.json(one.out()));
        Map<String, Object> together = new LinkedHashMap<>(KeptRecording.json(two.out()));
        alone.remove("seconds");
        together.remove("seconds");
        assertThat(together).isEqualTo(alone);
        assertThat(alone.get("rules")).isEqualTo(rules.word());
        assertThat((Long) alone.get("failed")).as("failing states").isPositive();
        assertThat(KeptRecording.states(alone)).extracting(s -> List.of(s.get("state"), s.get("passed")))
                .as("the states the explore checked on two workers, with its outcomes")
                .isEqualTo(KeptRecording.states(KeptRecording.json(recorded.out())).stream()
                        .map(s -> List.of(s.get("state"), s.get("passed"))).toList());
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

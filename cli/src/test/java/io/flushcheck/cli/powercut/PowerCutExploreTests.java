package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.DocumentedCommand;
import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.MiniJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@code flushcheck powercut --explore} on a program that is not Java: the settings store (a Python script)
 * runs once, writing each acknowledgement to {@code $FLUSHCHECK_ACKS}, and the verify runs on every crash
 * state of that run with the acknowledgements made before it in {@code {acks}}.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutExploreTests {

    private static final String PYTHON = PythonStore.PYTHON;
    private static final int VALUES = 4;

    @TempDir
    Path tmp;

    private Path store;
    private Path check;

    @BeforeEach
    void needs() throws IOException {
        PythonStore python = PythonStore.in(tmp);
        store = python.store();
        check = python.check();
    }


    /** The store, its acknowledgements going to the file flushcheck names in the environment. */
    private List<String> line(String mode, String... options) {
        List<String> args = new ArrayList<>(List.of("powercut", "--explore"));
        args.addAll(List.of(options));
        args.addAll(List.of("--verify", PYTHON + " " + check + " {dir} {acks}", "--", "sh", "-c",
                "exec " + PYTHON + " " + store + " \"$1\" \"$FLUSHCHECK_ACKS\" " + mode + " " + VALUES, "store", "{dir}"));
        return args;
    }

    @Test
    void anHonestStorePassesEveryCrashStateOfOneRun() {
        Run r = run(line("honest").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).startsWith("crash states of one run on ext4 (256 MiB): the command made ")
                .contains(" epochs, " + VALUES + " acknowledgements\n")
                .containsPattern("\\d+ states checked in [\\d.]+ s, 0 failing, \\d+ duplicates checked once, none left"
                        + " out by the bound of 1000\n")
                .doesNotContain("failed:");
        assertThat(r.err()).containsPattern("flushcheck powercut: \\[(\\d+)/\\1\\] crash states checked\n");
        PowerCutCommandTests.assertNothingLeft();
        assertNoAcksFilesLeft();
    }

    @Test
    void aStoreWithoutTheDirectorysSyncFailsAStateNamingTheFileAndTheDirectorySync() {
        Run r = run(DocumentedCommand.of(PowerCutExploreTests.class, "explore").with("python3", PYTHON)
                .with("check.py", check).with("store.py", store).args());
        System.out.println(r.out());
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        assertThat(r.out()).containsPattern("\\d+ states checked in [\\d.]+ s, [1-9]\\d* failing")
                .containsPattern("failed: after flush \\d+[^\n]*: exit 1: acknowledged value \\d, found [\\dnone]+\n"
                        + "    compared with [^\n]+:\n")
                .as("the rename that replaced value, and the directory whose sync would have kept it")
                .containsPattern("\n    value (is inode \\d+ \\(\\d+ bytes\\) again, not \\d+ \\(\\d+ bytes\\): the rename or"
                        + " creation that replaced it|\\(\\d+ bytes\\) missing: its creation or rename) not durable, no sync"
                        + " of the top directory completed after it\n");
        PowerCutCommandTests.assertNothingLeft();
        assertNoAcksFilesLeft();
    }

    @Test
    void theJsonHasEveryStateAndTheFailingOnesExplained() {
        Run r = run(line("nodirsync", "--json", "--max-states", "12").toArray(new String[0]));
        assertThat(r.exit()).as(r.err()).isEqualTo(1);
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(json.get("mode")).isEqualTo("explore");
        assertThat(json.get("model")).isEqualTo("block");
        assertThat(json.get("maxStates")).isEqualTo(12L);
        assertThat(json.get("commandExit")).isEqualTo(0L);
        assertThat(json.get("acknowledgements")).isEqualTo((long) VALUES);
        assertThat(((Number) json.get("flushes")).longValue()).isGreaterThanOrEqualTo(VALUES);
        List<Map<String, Object>> states = new ArrayList<>();
        for (Object s : MiniJson.array(json.get("states"))) {
            states.add(MiniJson.object(s));
        }
        assertThat(json.get("checked")).isEqualTo(12L);
        assertThat(states).hasSize(12);
        assertThat(((Number) json.get("leftOut")).longValue()).isPositive();
        long failed = states.stream().filter(s -> s.get("passed").equals(false)).count();
        assertThat(json.get("failed")).isEqualTo(failed);
        assertThat(json.get("passed")).isEqualTo(12L - failed);
        assertThat(states).allSatisfy(s -> {
            assertThat(s).containsKeys("state", "lost", "passed");
            assertThat(s.containsKey("failure")).as("%s", s).isEqualTo(s.get("passed").equals(false));
        });
        Map<String, Object> first = states.stream().filter(s -> s.get("passed").equals(false)).findFirst().orElseThrow();
        assertThat(MiniJson.array(first.get("explanation"))).map(String::valueOf)
                .anyMatch(line -> line.endsWith("no sync of the top directory completed after it"));
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * Draws take subsets of an epoch's writes where it has three or more: five direct writes of their own files,
     * each waited for before the next begins, with no flush between them until the sync, make one (the store's
     * epochs hold fewer writes as often as not, as ext4 groups them).
     */
    @Test
    void statesDrawnFromASeedAreCheckedAfterTheEnumeratedOnesAndNamedByTheirDraw() {
        Run r = run("powercut", "--explore", "--json", "--draw", "10", "--seed", "3", "--verify", "true {dir}", "--",
                "sh", "-c", "for i in 1 2 3 4 5; do dd if=/dev/zero of=\"$1/f$i\" bs=4096 count=1 oflag=direct"
                        + " status=none || exit; done; sync", "writer", "{dir}");
        assertThat(r.exit()).as(r.err()).isEqualTo(0);
        Map<String, Object> json = MiniJson.object(MiniJson.parse(r.out()));
        assertThat(json.get("draw")).isEqualTo(Map.of("count", 10L, "seed", 3L));
        List<String> states = new ArrayList<>();
        for (Object s : MiniJson.array(json.get("states"))) {
            states.add((String) MiniJson.object(s).get("state"));
        }
        List<String> drawn = states.stream().filter(s -> s.contains(": draw ")).toList();
        assertThat(drawn).as(r.out()).hasSizeBetween(1, 10).allSatisfy(s -> assertThat(s).containsPattern(
                ": draw \\d+ of seed 3: writes? \\d+ \\(\\d+ bytes at drive byte \\d+[^)]*\\)"));
        assertThat(states.subList(states.size() - drawn.size(), states.size())).as("drawn after those enumerated")
                .isEqualTo(drawn);

        Run unseeded = run(line("honest", "--seed", "3").toArray(new String[0]));
        assertThat(unseeded.exit()).isEqualTo(2);
        assertThat(unseeded.err()).contains("--seed is the seed of the states --draw N draws");
        Run notExploring = run("powercut", "--draw", "3", "--verify", "true {dir}", "--", "true", "{dir}");
        assertThat(notExploring.exit()).isEqualTo(2);
        assertThat(notExploring.err()).contains("--draw adds states to those --explore checks");
        PowerCutCommandTests.assertNothingLeft();
    }

    /**
     * The acknowledgements' files (the command's, and each state's for the verify) are made in the disk's work
     * directory, which must be gone, with nothing of this run left in the temp directory either.
     */
    private static void assertNoAcksFilesLeft() {
        PowerCutCommandTests.assertNothingLeft();
        try (var s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("acks-"));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}

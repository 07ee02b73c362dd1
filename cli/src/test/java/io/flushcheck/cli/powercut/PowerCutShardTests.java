package io.flushcheck.cli.powercut;

import static io.flushcheck.cli.InProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.cli.InProcess.Run;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Unprivileged;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A block model's recording kept by {@code --explore --record}, checked again by {@code --replay}, and by two shards
 * run as two processes at once, whose documents {@code powercut merge} joins into the one run's
 * ({@link KeptRecording}); the file model's are in {@link PowerCutFileExploreTests}.
 */
@Tag("own-devices") // beside the other such classes in a second fork: see cli/pom.xml
@ResourceLock(SimulatedPowerLoss.LOCK)
class PowerCutShardTests {

    @TempDir
    Path tmp;

    private KeptRecording kept;

    @BeforeEach
    void needs() throws IOException {
        PythonStore python = PythonStore.in(tmp);
        kept = new KeptRecording(tmp, List.of(), python.store(), python.check());
    }

    private String verify() {
        return kept.verify();
    }

    @Test
    void exploreAndReplayAsSubcommandsDoWhatTheirOptionsDo() {
        kept.theSubcommandsDoWhatTheOptionsDo();
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void twoShardsInTwoProcessesCheckTheStatesOneReplayChecksAndMergeIntoItsReport() throws Exception {
        Map<String, Object> one = kept.twoShardsInTwoProcessesCheckTheStatesOneReplayChecksAndMergeIntoItsReport();
        assertThat(one.get("model")).isEqualTo("block");
        assertThat(one).as("the block model has its filesystem's rules").containsEntry("rules", null);
    }

    @Test
    void aRecordingChangedSinceItWasKeptIsAUsageErrorAndAWorkDirectoryThatCannotBeMadeIsTheMachines() throws Exception {
        Path saved = tmp.resolve("recording");
        Run recorded = kept.record(saved, "honest", "--max-states", "1", "-q");
        assertThat(recorded.exit()).as(recorded.err()).isZero();

        Path file = tmp.resolve("a-file");
        Files.writeString(file, "not a directory");
        Process p = new ProcessBuilder(ChildJvm.command(List.of(), List.of("-Djava.io.tmpdir=" + file),
                "io.flushcheck.cli.Main", List.of("powercut", "--replay", saved.toString(), "--verify", verify())))
                .redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(said).isEqualTo(3);
        assertThat(said).contains("flushcheck powercut --replay: ").contains(file.toString());

        kept.aChangedLogIsRefused(saved);
    }

    /**
     * Without root, a block model's recording is refused for that before its files are read whole: the image is
     * not hashed (a changed one would be refused as changed, exit 2) to say that root is missing (exit 3).
     */
    @Test
    void withoutRootABlockRecordingIsRefusedForRootBeforeItsImageIsRead() throws Exception {
        Requirements.requireRoot();
        Path scratch = Files.createDirectories(tmp.resolve("unprivileged"));
        Path saved = Unprivileged.writableDir(scratch).resolve("recording");
        Run recorded = kept.record(saved, "honest", "--max-states", "1", "-q");
        assertThat(recorded.exit()).as(recorded.err()).isZero();
        // Root's recording is root's alone: the unprivileged user is handed a copy of it, its own.
        Process chown = new ProcessBuilder("chown", "-R", "65534:65534", saved.toString()).inheritIO().start();
        assertThat(chown.waitFor()).isZero();
        Path base = saved.resolve("base.img");
        try (FileChannel image = FileChannel.open(base, StandardOpenOption.WRITE)) {
            image.write(ByteBuffer.wrap(new byte[] {1}), 1024); // the superblock's first byte: not a zero block
        }
        ChildJvm.Result r = ChildJvm.run(Unprivileged.command(scratch, "io.flushcheck.cli.Main",
                List.of("powercut", "--replay", saved.toString(), "--verify", verify())), 120);
        assertThat(r.exit()).as("%s", r).isEqualTo(3);
        assertThat(r.stderr()).as("%s", r).contains("checking a block model's crash states needs root")
                .doesNotContain("is not what was saved");
        Run asRoot = run("powercut", "--replay", saved.toString(), "--verify", verify());
        assertThat(asRoot.exit()).as("as root, the changed image is refused: %s", asRoot.err()).isEqualTo(2);
        assertThat(asRoot.err()).contains("base.img is not what was saved");
    }

    /**
     * A kept recording replayed on one worker and on three gives the same document but for the time: the same
     * states in the same order, the same failures with VERIFY's words, the same explanations. On three, VERIFY ran
     * several times at once (each run notes how many were running as it started). Explored on the default workers,
     * the states are those replayed. Nothing is left mounted or attached.
     */
    @Test
    void severalWorkersCheckWhatOneWorkerChecksWithTheSameOutcomesTheirVerifiesRunningAtOnce() throws Exception {
        Path saved = tmp.resolve("recording");
        Run recorded = kept.record(saved, "nodirsync", "--max-states", KeptRecording.BOUND, "--json");
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
        Run one = run("powercut", "--replay", saved.toString(), "--max-states", KeptRecording.BOUND, "--json",
                "--workers", "1", "--verify", verify);
        assertThat(one.exit()).as(one.err()).isEqualTo(1);
        assertThat(Files.readAllLines(seen)).as("VERIFY runs at once on one worker").containsOnly("1");
        Files.delete(seen);
        Run three = run("powercut", "--replay", saved.toString(), "--max-states", KeptRecording.BOUND, "--json",
                "--workers", "3", "--verify", verify);
        assertThat(three.exit()).as(three.err()).isEqualTo(1);
        assertThat(Files.readAllLines(seen)).as("VERIFY runs at once on three workers").contains("2");
        Map<String, Object> alone = new java.util.LinkedHashMap<>(KeptRecording.json(one.out()));
        Map<String, Object> together = new java.util.LinkedHashMap<>(KeptRecording.json(three.out()));
        alone.remove("seconds");
        together.remove("seconds");
        assertThat(together).isEqualTo(alone);
        assertThat(KeptRecording.states(alone)).extracting(s -> s.get("state"))
                .as("the states --explore checked on the default workers, in its order")
                .isEqualTo(KeptRecording.states(KeptRecording.json(recorded.out())).stream().map(s -> s.get("state"))
                        .toList());
        PowerCutCommandTests.assertNothingLeft();
    }

    @Test
    void workersWithoutExploreOrOutOfRangeAreUsageErrors() {
        Run notExploring = run("powercut", "--workers", "2", "--verify", "true {dir}", "--", "true", "{dir}");
        assertThat(notExploring.exit()).as(notExploring.err()).isEqualTo(2);
        assertThat(notExploring.err()).contains("--workers says how many of the states --explore checks");
        for (String bad : List.of("0", "65", "two")) {
            Run r = run("powercut", "--explore", "--workers", bad, "--verify", "true {dir}", "--", "true", "{dir}");
            assertThat(r.exit()).as(bad + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).as(bad).contains("--workers");
        }
    }

    @Test
    void aBadShardAShardWithoutReplayAndAMissingRecordingAreUsageErrors() {
        for (String bad : List.of("3/2", "0/2", "2", "a/b")) {
            Run r = run("powercut", "--replay", tmp.toString(), "--shard", bad, "--verify", verify());
            assertThat(r.exit()).as(bad + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--shard");
        }
        Run noReplay = run("powercut", "--shard", "1/2", "--verify", "true {dir}", "--", "true", "{dir}");
        assertThat(noReplay.exit()).isEqualTo(2);
        assertThat(noReplay.err()).contains("--shard checks a share of a kept recording's states");
        Run missing = run("powercut", "--replay", tmp.resolve("none").toString(), "--verify", verify());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no such directory");
        Run notOne = run("powercut", "--replay", tmp.toString(), "--verify", verify());
        assertThat(notOne.exit()).isEqualTo(2);
        assertThat(notOne.err()).contains("holds no saved recording");
        Run withCommand = run("powercut", "--replay", tmp.toString(), "--fs", "xfs", "--verify", verify());
        assertThat(withCommand.exit()).isEqualTo(2);
        assertThat(withCommand.err()).contains("it takes no --fs");
    }
}

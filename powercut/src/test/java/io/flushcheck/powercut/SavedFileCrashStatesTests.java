package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A file model's recording saved, loaded back in another work directory and checked there, without root: the
 * states, their outcomes, their explanations and what must survive at each are those of the recording checked
 * where it was made, under the rules it was made with: a file replaced by renames of copies not synced
 * ({@link FileCrashStatesTests#record}), some of whose states keep a rename and lose the bytes it names.
 */
class SavedFileCrashStatesTests {

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        TestDisks.requireFileModel();
    }

    @ParameterizedTest
    @EnumSource(FileRules.class)
    void aLoadedRecordingHasTheSameStatesOutcomesAndIdAsTheOneSaved(FileRules rules) throws Exception {
        Path saved = tmp.resolve("saved");
        Path work = tmp.resolve("work");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).rules(rules)
                .create(tmp.resolve("disk"))) {
            CrashStates recorded = FileCrashStatesTests.record(disk, false);
            String id = recorded.save(saved);
            CrashStateReport here = FileCrashStatesTests.check(recorded);

            CrashStates loaded = CrashStates.load(saved, work);

            assertThat(loaded.model()).isEqualTo(DiskModel.FILE);
            assertThat(loaded.rules()).as("the recording names its rules").isEqualTo(recorded.rules()).isEqualTo(rules);
            assertThat(loaded.recordingId()).isEqualTo(id).hasSize(64);
            assertThat(loaded.acknowledged().all()).isEqualTo(recorded.acknowledged().all())
                    .hasSize(FileCrashStatesTests.VALUES);
            assertThat(loaded.writes()).isEqualTo(recorded.writes()).isPositive();
            assertThat(loaded.epochs()).isEqualTo(recorded.epochs());
            assertThat(loaded.fs()).isEqualTo("files");
            CrashStateReport there = FileCrashStatesTests.check(loaded);
            assertThat(outcomes(there)).isEqualTo(outcomes(here));
            assertThat(there.failing()).isPositive();
            assertThat(there.failures().get(0).explanation()).isEqualTo(here.failures().get(0).explanation())
                    .anyMatch(line -> line.contains("data/config.tmp, file not synced"));
            // Sharded on the loaded recording, each state once.
            CrashStateReport first = loaded.check(1000, 0, 2, SavedFileCrashStatesTests::verify);
            CrashStateReport second = loaded.check(1000, 1, 2, SavedFileCrashStatesTests::verify);
            assertThat(first.checked() + second.checked()).isEqualTo(there.checked());
            assertThat(first.failing() + second.failing()).isEqualTo(there.failing());
        }
        assertThat(leftIn(work)).as("the loaded recording's replays and survivors are removed").isEmpty();
    }

    @Test
    void aFileRecordingChangedSinceItWasSavedOrNamingABlockModelsFilesIsRefused() throws Exception {
        Path saved = tmp.resolve("saved");
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64)
                .create(tmp.resolve("disk"))) {
            FileCrashStatesTests.record(disk, false).save(saved);
        }
        String manifest = Files.readString(saved.resolve(SavedRecording.MANIFEST));
        assertThat(manifest).startsWith("flushcheck recording 3\nmodel file\nlog ");
        assertThat(saved.resolve(SavedRecording.BASE)).doesNotExist();

        Path log = saved.resolve(SavedRecording.LOG);
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length / 2] ^= 1;
        Files.write(log, bytes);
        assertThatThrownBy(() -> CrashStates.load(saved, tmp.resolve("work")))
                .isInstanceOf(UnreadableRecordingException.class)
                .hasMessageContaining(SavedRecording.LOG + " is not what was saved: its SHA-256 is ");
        bytes[bytes.length / 2] ^= 1;
        Files.write(log, bytes);
        assertThat(CrashStates.load(saved, tmp.resolve("work")).writes()).isPositive();

        Files.writeString(saved.resolve(SavedRecording.MANIFEST), manifest.replace("model file\n", ""),
                StandardCharsets.UTF_8);
        assertThatThrownBy(() -> CrashStates.load(saved, tmp.resolve("work")))
                .isInstanceOf(UnreadableRecordingException.class).hasMessageContaining("names no model");
        Files.writeString(saved.resolve(SavedRecording.MANIFEST), manifest + "fs ext4\n", StandardCharsets.UTF_8);
        assertThatThrownBy(() -> CrashStates.load(saved, tmp.resolve("work")))
                .isInstanceOf(UnreadableRecordingException.class)
                .hasMessageContaining("is a file model's and names a block model's");
    }

    private static void verify(Path survivor, List<String> mustSurvive) throws IOException {
        ReplacedFile.verify(survivor.resolve("data/config"), mustSurvive);
    }

    private static List<String> outcomes(CrashStateReport report) {
        return report.states().stream().map(s -> s.state() + (s.passed() ? " passed" : " failed")).toList();
    }

    /** What the checks left under {@code work}: no state's survivor, nothing of the replays. */
    private static List<Path> leftIn(Path work) throws IOException {
        try (Stream<Path> all = Files.walk(work)) {
            return all.filter(p -> p.getFileName().toString().equals("state") || p.toString().contains("/replay/"))
                    .sorted(Comparator.naturalOrder()).toList();
        }
    }
}

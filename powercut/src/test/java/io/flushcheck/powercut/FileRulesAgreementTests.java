package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The file model's default rules keep what {@link AgreementCorpus} says ext4 keeps ({@link Ext4AgreementTests}
 * holds ext4 to the same table as root): each workload, cut after each of its acknowledgements, as root and as
 * nobody ({@code .ci/powercut-without-root}); the POSIX rules fail the store that creates its own directory, and
 * the cut says which rule lost what.
 */
class FileRulesAgreementTests {

    @TempDir
    Path tmp;

    private int disks;

    private SimulatedDisk disk() throws java.io.IOException {
        // The default rules, whatever they are: this is the test that fails should they stop agreeing with ext4.
        return SimulatedDisk.builder().model(DiskModel.FILE).create(tmp.resolve("d" + ++disks));
    }

    static void requireFileModel() {
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Requirements.isRoot() || SimulatedDisk.fusermount() != null,
                "fusermount3 or fusermount to mount FUSE without root (apt-get install fuse3)");
    }

    @Test
    void theFileModelsDefaultKeepsWhatExt4KeepsAtEachCrashPointOfEachWorkload() throws Exception {
        requireFileModel();
        Requirements.require(Files.isExecutable(Path.of(AgreementCorpus.PYTHON)), AgreementCorpus.PYTHON
                + " (apt-get install python3)");
        List<String> expected = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (AgreementCorpus.Case c : AgreementCorpus.cases()) {
            expected.add(c.name() + ": " + c.expected());
            files.add(c.name() + ": " + AgreementCorpus.outcomes(c, this::disk));
        }
        assertThat(files).as("the file model's default, cut after acknowledgement 1 to %d, against the corpus's table",
                AgreementCorpus.STEPS).containsExactlyElementsOf(expected);
    }

    /**
     * Under each rule, every crash state of a file rewritten or extended in place and never synced is one a
     * page-cache filesystem can leave: within a page, a prefix in time of its writes; a size set, kept whole.
     */
    @ParameterizedTest
    @EnumSource(FileRules.class)
    void everyCrashStateOfAFileWrittenInPlaceIsOneExt4CanLeave(FileRules rules) throws Exception {
        requireFileModel();
        List<String> failing = new ArrayList<>();
        for (AgreementCorpus.StateCase c : AgreementCorpus.stateCases()) {
            if (rules == FileRules.POSIX && AgreementCorpus.journaledOnly(c)) {
                continue; // thePosixRulesLoseASizeChangeALaterSyncOfAnotherFileCommitsOnExt4 holds it
            }
            if (AgreementCorpus.ext4WritesEarly(c)) {
                continue; // aReplacedFileLostIsSaidToBeOneExt4WouldHaveKept holds it
            }
            try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).rules(rules)
                    .create(tmp.resolve("d" + ++disks))) {
                for (String f : AgreementCorpus.failingStates(c, disk)) {
                    failing.add(c.name() + ": " + f);
                }
            }
        }
        assertThat(failing).as("states of the file model under %s rules that no page-cache filesystem leaves",
                rules.word()).isEmpty();
    }

    @Test
    void thePosixRulesFailTheStoreInItsOwnDirectoryAndSayExt4WouldHaveKeptIt() throws Exception {
        requireFileModel();
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).rules(FileRules.POSIX)
                .create(tmp.resolve("posix"))) {
            AgreementCorpus.OWN_DIRECTORY.run(disk, 2);
            assertThat(AgreementCorpus.OWN_DIRECTORY.kept(disk.cutPower(), 2)).isFalse();
            assertThat(disk.cuts().get(0).toString()).contains("the POSIX rules lost 3 name changes",
                    "directory /db", "directory /db/data", "/db/data/log", "ext4, xfs and btrfs", "would have kept");
        }
    }

    /**
     * A file replaced by a truncation to 0 or by a rename, closed without a sync, then another file synced: ext4 keeps
     * it (it starts writing such a file early, auto_da_alloc); xfs and other filesystems need not, and the model,
     * under either rule, leaves states without it, each saying that ext4 would have kept those bytes.
     */
    @ParameterizedTest
    @EnumSource(FileRules.class)
    void aReplacedFileLostIsSaidToBeOneExt4WouldHaveKept(FileRules rules) throws Exception {
        requireFileModel();
        for (AgreementCorpus.StateCase c : AgreementCorpus.stateCases()) {
            if (AgreementCorpus.ext4WritesEarly(c)) {
                try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).rules(rules)
                        .create(tmp.resolve("d" + ++disks))) {
                    assertThat(AgreementCorpus.failingStates(c, disk)).as(c.name()).isNotEmpty()
                            .allMatch(f -> f.contains("(auto_da_alloc)") && f.contains("ext4 would have kept these"
                                    + " bytes"), "says that ext4 would have kept the bytes lost");
                }
            }
        }
    }

    /** A truncation is durable at its own file's sync alone under the POSIX rules: a state loses it. */
    @Test
    void thePosixRulesLoseASizeChangeALaterSyncOfAnotherFileCommitsOnExt4() throws Exception {
        requireFileModel();
        List<String> failing = new ArrayList<>();
        for (AgreementCorpus.StateCase c : AgreementCorpus.stateCases()) {
            if (AgreementCorpus.journaledOnly(c)) {
                try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).rules(FileRules.POSIX)
                        .create(tmp.resolve("d" + ++disks))) {
                    failing.addAll(AgreementCorpus.failingStates(c, disk));
                }
            }
        }
        assertThat(failing).as("the POSIX rules' states").isNotEmpty()
                .anyMatch(f -> f.contains("truncate sized to 100 bytes, file not synced"));
    }
}

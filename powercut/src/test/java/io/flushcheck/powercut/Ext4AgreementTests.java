package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ext4 keeps what {@link AgreementCorpus} says, at each crash point of each workload: the table that
 * {@link FileRulesAgreementTests} holds the file model to, as nobody too, is ext4's, measured here (root).
 */
class Ext4AgreementTests {

    @TempDir
    Path tmp;

    private int disks;

    private SimulatedDisk disk() throws java.io.IOException {
        return SimulatedDisk.builder().model(DiskModel.BLOCK).sizeMiB(32).create(tmp.resolve("d" + ++disks));
    }

    @Test
    void ext4KeepsWhatTheCorpusSaysAtEachCrashPointOfEachWorkload() throws Exception {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Files.isExecutable(Path.of(AgreementCorpus.PYTHON)), AgreementCorpus.PYTHON
                + " (apt-get install python3)");
        List<String> expected = new ArrayList<>();
        List<String> ext4 = new ArrayList<>();
        for (AgreementCorpus.Case c : AgreementCorpus.cases()) {
            expected.add(c.name() + ": " + c.expected());
            ext4.add(c.name() + ": " + AgreementCorpus.outcomes(c, this::disk));
        }
        assertThat(ext4).as("ext4 (the block model), cut after acknowledgement 1 to %d, against the corpus's table",
                AgreementCorpus.STEPS).containsExactlyElementsOf(expected);
    }

    /** ext4 leaves no state of the corpus's files written in place that fails their checks: the checks are sound. */
    @Test
    void everyCrashStateOfAFileWrittenInPlaceOnExt4PassesItsCheck() throws Exception {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        List<String> failing = new ArrayList<>();
        for (AgreementCorpus.StateCase c : AgreementCorpus.stateCases()) {
            try (SimulatedDisk disk = disk()) {
                for (String f : AgreementCorpus.failingStates(c, disk)) {
                    failing.add(c.name() + ": " + f);
                }
            }
        }
        assertThat(failing).as("ext4's states (the block model) that fail the corpus's checks").isEmpty();
    }
}

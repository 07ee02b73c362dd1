package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every crash state of one recorded run on the file model, through FUSE and without root: a file replaced by
 * a rename of a synced temporary file passes each, under both rules; without the temporary file's sync, a
 * state keeps the rename and loses the bytes it names, and the failure says which write was lost and why.
 */
class FileCrashStatesTests {

    static final int VALUES = 8;

    @TempDir
    Path tmp;

    @BeforeEach
    void needs() {
        TestDisks.requireFileModel();
    }

    /** A file replaced {@link #VALUES} times by a rename of a copy, the copy synced first or not. */
    static CrashStates record(SimulatedDisk disk, boolean syncData) throws Exception {
        Path dir = Files.createDirectories(disk.path().resolve("data"));
        ReplacedFile.replace(dir, "config", "value 0", true);
        return disk.recordCrashStates(acks -> {
            for (int i = 1; i <= VALUES; i++) {
                ReplacedFile.replace(dir, "config", "value " + i, syncData);
                acks.add("value " + i);
            }
        });
    }

    static CrashStateReport check(CrashStates states) throws IOException {
        return states.check(1000, (survivor, mustSurvive) -> ReplacedFile.verify(survivor.resolve("data/config"),
                mustSurvive));
    }

    @ParameterizedTest
    @EnumSource(FileRules.class)
    void aFileReplacedByARenameOfItsSyncedCopyPassesEveryState(FileRules rules) throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).rules(rules)
                .create(tmp.resolve("disk"))) {
            CrashStates states = record(disk, true);
            CrashStateReport report = check(states);
            System.out.println(rules + " synced copy: " + states.writes() + " operations in " + states.epochs()
                    + " epochs; " + report + "; " + String.format("%.1f", report.checked() / report.seconds())
                    + " states/s; load " + Files.readString(Path.of("/proc/loadavg")).trim());
            report.assertPassed();
            assertThat(report.checked()).isGreaterThan(VALUES * 3);
            assertThat(report.leftOut()).isZero();
            assertThat(leftBehind(disk)).isEmpty();
        }
    }

    /**
     * Under the journaled rules the directory's sync commits the rename and not the bytes of the file renamed;
     * under POSIX's it commits the rename too. Either way a state keeps the name with none of its bytes.
     */
    @ParameterizedTest
    @EnumSource(FileRules.class)
    void aRenameOfAnUnsyncedCopyFailsInTheStateThatKeptTheRenameAndLostTheWrite(FileRules rules) throws Exception {
        try (SimulatedDisk disk = SimulatedDisk.builder().model(DiskModel.FILE).sizeMiB(64).rules(rules)
                .create(tmp.resolve("disk"))) {
            CrashStates states = record(disk, false);
            CrashStateReport report = check(states);
            System.out.println(rules + " unsynced copy: " + report);
            assertThat(report.failing()).isPositive();
            CrashStateReport.Failure first = report.failures().get(0);
            assertThat(first.lost()).isEqualTo(1);
            assertThat(first.message()).contains("holds \"\", no whole value");
            assertThat(first.explanation()).contains("7 bytes at offset 0 of data/config.tmp, file not synced");
            assertThatThrownBy(report::assertPassed).satisfies(e -> {
                System.out.println(e.getMessage());
                assertThat(e.getMessage()).contains("data/config.tmp, file not synced");
            });
            assertThat(leftBehind(disk)).isEmpty();
        }
    }

    /** What the checks left in the disk's work directory: no state's survivor, no file of the replays (their directory goes with the disk). */
    private Stream<Path> leftBehind(SimulatedDisk disk) throws IOException {
        Path work = tmp.resolve("disk");
        try (Stream<Path> all = Files.walk(work)) {
            return all.filter(p -> p.getFileName().toString().equals("state") || p.toString().contains("/replay/"))
                    .toList().stream();
        }
    }
}

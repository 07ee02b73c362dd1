package io.flushcheck;

import static io.flushcheck.testing.Checks.codes;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.ProbeListener;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.MountTable;
import io.flushcheck.testing.Checks;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.ProbeLeftovers;
import io.flushcheck.testing.Requirements;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The directory is opened once and the probe's files are made relative to that descriptor: a name swapped to another
 * directory right after the opening does not take the syncs along, and a mount that appeared between inspection and
 * opening is caught (DIRECTORY_CHANGED) instead of probed as if the facts were about it.
 */
class DirectoryOpenedOnceTests {

    private static final ProbePlan PLAN = new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC),
            4096, 32, false, 3);
    private static final CheckOptions OPTIONS = new CheckOptions(PLAN, Thresholds.DEFAULT, false);
    private static final CheckOptions ALWAYS_PROBE = new CheckOptions(PLAN, Thresholds.DEFAULT, true);

    private static Path base;

    @BeforeAll
    static void baseDir() throws IOException {
        base = Files.createDirectories(Path.of("target", "opened-once").toAbsolutePath());
    }

    /** After the opening, the directory's name is moved away and a new directory takes it. */
    private static final class SwapAfterOpening implements CheckHooks {
        final Path moved;

        SwapAfterOpening(Path moved) {
            this.moved = moved;
        }

        @Override
        public void inspected(Path real) {
        }

        @Override
        public void opened(Path real) {
            try {
                Files.move(real, moved);
                Files.createDirectory(real);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Where the probe's files are while each mode runs, in the two directories. */
    private static final class Watch implements ProbeListener {
        final Path opened;
        final Path swapped;
        final List<String> inOpened = new ArrayList<>();
        final List<String> inSwapped = new ArrayList<>();

        Watch(Path opened, Path swapped) {
            this.opened = opened;
            this.swapped = swapped;
        }

        @Override
        public void progress(SyncMode mode, int done, int total) {
            if (done == 0) {
                inOpened.addAll(ProbeLeftovers.in(opened));
                inSwapped.addAll(ProbeLeftovers.in(swapped));
            }
        }
    }

    @Test
    void theProbesFilesLandInTheDirectoryOpenedWhenItsNameIsSwappedRightAfter() throws IOException {
        Path dir = Checks.freshDir(base, "swapped");
        Path moved = base.resolve("swapped-opened");
        Checks.freshDir(base, "swapped-opened");
        Files.delete(moved);
        Watch watch = new Watch(moved, dir);

        CheckResult r = Flushcheck.check(dir, OPTIONS, watch, new SwapAfterOpening(moved));

        assertThat(watch.inSwapped).as("files made in the directory that took the name").isEmpty();
        assertThat(watch.inOpened).as("files made in the directory opened").isNotEmpty();
        assertThat(codes(r)).doesNotContain(FindingCode.DIRECTORY_CHANGED, FindingCode.PROBE_FAILED);
        assertThat(r.costs()).hasSize(PLAN.modes().size());
        assertThat(ProbeLeftovers.in(moved)).isEmpty();
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }

    @Test
    void aMountThatAppearsBetweenInspectionAndOpeningIsNamedAndNeverRealFlush() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = Checks.freshDir(base, "covered");
            int disk = MountTable.live().mountOf(dir.toString()).mountId();
            CheckHooks coverIt = new CheckHooks() {
                @Override
                public void inspected(Path real) {
                    try {
                        mounts.tmpfs(real, "size=16m");
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void opened(Path real) {
                }
            };

            CheckResult r = Flushcheck.check(dir, OPTIONS, ProbeListener.NONE, coverIt);

            int tmpfs = MountTable.live().mountOf(dir.toString()).mountId();
            assertThat(tmpfs).isNotEqualTo(disk);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.UNKNOWN);
            assertThat(Checks.finding(r, FindingCode.DIRECTORY_CHANGED).message())
                    .contains("mount " + disk).contains("mount " + tmpfs).contains("tmpfs");
            assertThat(r.costs()).as("no probe on a directory the facts are not about").isEmpty();
            assertThat(ProbeLeftovers.in(dir)).isEmpty();
        }
    }

    @Test
    void aDirectoryInAnotherNamespacesTmpfsIsProbedThereWhenItsNameIsSwapped() throws IOException {
        Mounts.requireMountTools();
        Requirements.requireCommand("unshare", "util-linux");
        try (Mounts mounts = new Mounts()) {
            Path inner = Checks.freshDir(base, "ns-tmpfs");
            long pid = mounts.namespaceWithTmpfs(inner);
            Path there = Path.of("/proc/" + pid + "/root" + inner);
            Path dir = Files.createDirectory(there.resolve("data"));
            Path moved = there.resolve("data-opened");
            Watch watch = new Watch(moved, dir);

            CheckResult r = Flushcheck.check(dir, ALWAYS_PROBE, watch, new SwapAfterOpening(moved));

            int tmpfsId = -1;
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/mountinfo"))) {
                if (line.contains(" " + inner + " ") && line.contains("flushcheck-ns")) {
                    tmpfsId = Integer.parseInt(line.substring(0, line.indexOf(' ')));
                }
            }
            assertThat(r.facts().fsType()).isEqualTo("tmpfs");
            assertThat(r.facts().mount().mountId()).isEqualTo(tmpfsId);
            assertThat(codes(r)).doesNotContain(FindingCode.DIRECTORY_CHANGED, FindingCode.PROBE_FAILED);
            assertThat(watch.inSwapped).as("files made in the directory that took the name").isEmpty();
            assertThat(watch.inOpened).as("files made in the namespace's tmpfs, in the directory opened")
                    .hasSize(PLAN.modes().size());
            // The tmpfs has no device: no flush of its probe is counted on a disk of this namespace.
            assertThat(r.costs()).hasSize(PLAN.modes().size()).allSatisfy(c -> assertThat(c.devices()).isEmpty());
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(ProbeLeftovers.in(moved)).isEmpty();
            assertThat(Files.list(inner).toList()).as("nothing in this namespace's directory of that name").isEmpty();
        }
    }
}

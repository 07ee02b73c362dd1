package io.flushcheck;

import static io.flushcheck.testing.Checks.check;
import static io.flushcheck.testing.Checks.codes;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.MountTable;
import io.flushcheck.testing.Checks;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An overlay mounted in another mount namespace, reached through {@code /proc/PID/root}: its {@code upperdir=} is a
 * name in the mounter's namespace. Where that name reaches one directory here and another there, the upper layer
 * is not taken for this namespace's directory of that name; where it is the same directory in both, it is.
 */
class OverlayInAnotherNamespaceTests {

    private static final ProbePlan PLAN = new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC),
            4096, 64, false, 3);
    private static final CheckOptions OPTIONS = new CheckOptions(PLAN, Thresholds.DEFAULT, false);

    private static Path base;

    @BeforeAll
    static void baseDir() throws IOException {
        base = Files.createDirectories(Path.of("target", "overlay-ns").toAbsolutePath());
    }

    private static void requireNamespaces() {
        Mounts.requireMountTools();
        Requirements.requireCommand("unshare", "util-linux");
    }

    @Test
    void anUpperLayerWhoseNameIsATmpfsThereAndADiskDirectoryHereIsNotTakenForTheDisk() throws IOException {
        requireNamespaces();
        try (Mounts mounts = new Mounts()) {
            Path merged = Checks.freshDir(base, "merged");
            Path layers = Checks.freshDir(base, "merged.layers");
            // Here, the upper layer's name is a directory on the disk.
            Files.createDirectories(layers.resolve("upper"));
            int disk = MountTable.live().mountOf(layers.toString()).mountId();
            // There, a tmpfs covers it, and the overlay's upper layer is on that tmpfs.
            long pid = mounts.namespace("mount -t tmpfs flushcheck-upper \"$0.layers\" && cd \"$0.layers\""
                    + " && mkdir upper work lower && mount -t overlay -o lowerdir=$0.layers/lower,"
                    + "upperdir=$0.layers/upper,workdir=$0.layers/work flushcheck-ns \"$0\"", layersTwin(merged, layers));
            Path there = Path.of("/proc/" + pid + "/root" + merged);

            CheckResult r = check(there, OPTIONS);

            assertThat(r.facts().fsType()).isEqualTo("overlay");
            assertThat(r.facts().upperMount()).as("the upper layer's mount").satisfiesAnyOf(
                    m -> assertThat(m).isNull(), m -> assertThat(m.mountId()).isNotEqualTo(disk));
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isNotEqualTo(Verdict.REAL_FLUSH);
            assertThat(codes(r)).contains(FindingCode.UNCOUNTED_LEVEL);
            assertThat(Checks.finding(r, FindingCode.UNCOUNTED_LEVEL).message()).contains(layers + "/upper");
        }
    }

    @Test
    void anUpperLayerThatIsTheSameDirectoryInBothNamespacesIsJudgedByItsDisk() throws IOException {
        requireNamespaces();
        try (Mounts mounts = new Mounts()) {
            Path merged = Checks.freshDir(base, "merged-shared");
            Path layers = Checks.freshDir(base, "merged-shared.layers");
            for (String d : List.of("upper", "work", "lower")) {
                Files.createDirectories(layers.resolve(d));
            }
            long pid = mounts.namespace("mount -t overlay -o lowerdir=$0.layers/lower,upperdir=$0.layers/upper,"
                    + "workdir=$0.layers/work flushcheck-ns \"$0\"", layersTwin(merged, layers));
            Path there = Path.of("/proc/" + pid + "/root" + merged);

            CheckResult r = check(there, OPTIONS);

            assertThat(r.facts().fsType()).isEqualTo("overlay");
            assertThat(r.facts().upperMount().mountId()).isEqualTo(MountTable.live().mountOf(layers.toString()).mountId());
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        }
    }

    /** The namespace's script names its layers {@code MERGED.layers}: that is {@code layers} here. */
    private static Path layersTwin(Path merged, Path layers) {
        assertThat(layers.toString()).isEqualTo(merged + ".layers");
        return merged;
    }
}

package io.flushcheck;

import static io.flushcheck.testing.Checks.check;
import static io.flushcheck.testing.Checks.codes;
import static io.flushcheck.testing.Checks.finding;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.MountTable;
import io.flushcheck.testing.Checks;
import io.flushcheck.testing.ChildJvm;
import io.flushcheck.testing.MiniJson;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.ProbeLeftovers;
import io.flushcheck.testing.Requirements;
import io.flushcheck.text.Numbers;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The environments docs/architecture.md lists, built for real: the build directory's disk, /dev/shm, a fresh tmpfs,
 * ext4 loop images with barriers on and off, a loop image on tmpfs, read-only and full filesystems,
 * and a child JVM under eatmydata. Mounting needs root: outside CI these skip, in CI they fail.
 */
class RealEnvironmentTests {

    private static final int ROUNDS = 50;
    private static final ProbePlan PLAN = new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC),
            4096, ROUNDS, false, 3);
    private static final CheckOptions OPTIONS = new CheckOptions(PLAN, Thresholds.DEFAULT, false);
    private static final CheckOptions ALWAYS_PROBE = new CheckOptions(PLAN, Thresholds.DEFAULT, true);

    private static Path base;

    @BeforeAll
    static void baseDir() throws IOException {
        base = Files.createDirectories(Path.of("target", "real-env").toAbsolutePath());
    }

    private static Path freshDir(String name) throws IOException {
        return Checks.freshDir(base, name);
    }

    private static MountInfo mountOf(Path dir) throws IOException {
        return MountTable.live().mountOf(dir.toRealPath().toString());
    }

    @Test
    void aDirectoryUnderTheBuildDirReachesTheDisk() throws IOException {
        Path dir = freshDir("disk");
        CheckResult r = check(dir, OPTIONS);
        assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        assertThat(codes(r)).startsWith(FindingCode.FLUSHES_REACHED).doesNotContain(FindingCode.NOT_PROBED);
        assertThat(r.costs()).extracting(SyncCost::mode).containsExactly(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC);
        for (SyncCost c : r.costs()) {
            assertThat(c.rounds()).isEqualTo(ROUNDS);
            assertThat(c.flushesReached()).as("%s flushes", c.mode()).isGreaterThanOrEqualTo(ROUNDS);
            assertThat(c.kibWritten()).as("%s KiB", c.mode()).isGreaterThanOrEqualTo(ROUNDS * 4L);
            assertThat(c.p50Micros()).isPositive();
        }
        assertThat(finding(r, FindingCode.FLUSHES_REACHED).message()).startsWith("syncs reached " + r.facts().deviceDescription()
                + ": overwrite-fdatasync: ");
    }

    @Test
    void devShmIsDecidedWithoutAProbeInMilliseconds() throws IOException {
        Path shm = Path.of("/dev/shm");
        Requirements.require(Files.isDirectory(shm), "/dev/shm");
        // The first call in a JVM pays for class loading; the steady state is what a test suite sees.
        // The best of five keeps a busy machine's scheduling noise out of the figure.
        long best = Long.MAX_VALUE;
        CheckResult r = null;
        for (int i = 0; i < 5; i++) {
            r = check(shm, OPTIONS);
            best = Math.min(best, r.elapsedMillis());
        }
        MountInfo m = mountOf(shm);
        assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(r.costs()).isEmpty();
        assertThat(r.judgement().reasons()).extracting(Finding::toString).containsExactly("RAM_FILESYSTEM: /dev/shm is on "
                + m.fsType() + " (/dev/shm, mount " + m.mountId() + "): syncs reach no device");
        assertThat(codes(r)).contains(FindingCode.NOT_PROBED);
        assertThat(best).isLessThan(10);
    }

    @Test
    void aFreshTmpfsIsNoRealFlushAndNothingIsWritten() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = mounts.tmpfs(freshDir("tmpfs"), "size=4m");
            CheckResult r = check(dir, OPTIONS);
            MountInfo m = mountOf(dir);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(r.costs()).isEmpty();
            assertThat(codes(r)).startsWith(FindingCode.RAM_FILESYSTEM).contains(FindingCode.NOT_PROBED);
            assertThat(finding(r, FindingCode.RAM_FILESYSTEM).message()).isEqualTo(dir + " is on tmpfs (" + dir
                    + ", mount " + m.mountId() + "): syncs reach no device");
            assertThat(r.elapsedMillis()).isLessThan(500);
            try (var s = Files.list(dir)) {
                assertThat(s).isEmpty();
            }
            // Probing anyway measures memory: fast, and no device to count on.
            CheckResult probed = check(dir, ALWAYS_PROBE);
            assertThat(probed.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(probed.costs()).hasSize(2).allSatisfy(c -> assertThat(c.hasDeviceCounters()).isFalse());
        }
    }

    @Test
    void ext4OnALoopDeviceWithoutBarriersIsNoRealFlush() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = freshDir("nobarrier");
            String loop = mounts.loopExt4(base.resolve("nobarrier.img"), 64, dir, "nobarrier");
            String loopName = Path.of(loop).getFileName().toString();

            CheckResult r = check(dir, OPTIONS);
            MountInfo m = mountOf(dir);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(r.costs()).isEmpty();
            assertThat(r.facts().device().name()).isEqualTo(loopName);
            assertThat(r.judgement().reasons()).extracting(Finding::toString).containsExactly("BARRIERS_OFF: " + dir
                    + " is on ext4 mounted with nobarrier (" + dir + ", mount " + m.mountId()
                    + "): the filesystem sends no cache flushes to " + r.facts().deviceDescription());
            assertThat(r.facts().deviceDescription()).startsWith(loopName + " -> ");

            // Measured anyway: the syncs still take time, yet no flush reaches the loop device.
            CheckResult probed = check(dir, ALWAYS_PROBE);
            assertThat(probed.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(probed.costs()).hasSize(2);
            for (SyncCost c : probed.costs()) {
                assertThat(c.devices().get(0).device()).isEqualTo(loopName);
                assertThat(c.devices().get(0).delta().flushes()).as("%s flushes at %s", c.mode(), loopName).isZero();
                assertThat(c.flushesReached()).isZero();
                assertThat(c.p50Micros()).isPositive();
            }
            SyncCost overwrite = probed.costs().get(0);
            assertThat(probed.judgement().findings()).extracting(Finding::toString).contains(
                    "FLUSHES_MISSING: overwrite-fdatasync: 0 of " + ROUNDS + " syncs reached "
                            + probed.facts().deviceDescription() + " as a cache flush (" + Numbers.micros(overwrite.p50Micros())
                            + " µs median)");
            System.out.printf("nobarrier loop: overwrite-fdatasync p50 %s µs, append-fsync p50 %s µs, 0 flushes%n",
                    Numbers.micros(overwrite.p50Micros()), Numbers.micros(probed.costs().get(1).p50Micros()));
        }
    }

    @Test
    void ext4OnALoopDeviceWithBarriersReachesTheDisk() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = freshDir("barrier");
            String loop = mounts.loopExt4(base.resolve("barrier.img"), 64, dir, "defaults");
            String loopName = Path.of(loop).getFileName().toString();
            CheckResult r = check(dir, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(r.facts().flushPoints()).hasSizeGreaterThanOrEqualTo(2);
            for (SyncCost c : r.costs()) {
                assertThat(c.devices()).hasSizeGreaterThanOrEqualTo(2);
                DeviceDelta first = c.devices().get(0);
                assertThat(first.device()).isEqualTo(loopName);
                assertThat(first.terminal()).isFalse();
                assertThat(first.delta().flushes()).as("%s flushes at %s", c.mode(), loopName).isGreaterThanOrEqualTo(ROUNDS);
                for (DeviceDelta d : c.devices().subList(1, c.devices().size())) {
                    assertThat(d.terminal()).isTrue();
                    assertThat(d.delta().flushes()).as("%s flushes at %s", c.mode(), d.device()).isGreaterThanOrEqualTo(ROUNDS);
                }
                assertThat(c.flushesReached()).isGreaterThanOrEqualTo(ROUNDS);
            }
        }
    }

    @Test
    void aLoopDeviceWhoseBackingFileIsOnTmpfsIsARamBlockDevice() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path ram = mounts.tmpfs(freshDir("ram-backing"), "size=80m");
            Path dir = freshDir("on-ram-loop");
            String loop = mounts.loopExt4(ram.resolve("ram.img"), 48, dir, "defaults");
            String loopName = Path.of(loop).getFileName().toString();
            CheckResult r = check(dir, OPTIONS);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(r.costs()).isEmpty();
            assertThat(r.judgement().reasons()).extracting(Finding::toString).containsExactly("RAM_BLOCK_DEVICE: " + dir
                    + " is on " + loopName + ": " + loopName + " is a loop device whose backing file " + ram.resolve("ram.img")
                    + " is on tmpfs at " + ram + ": syncs reach no device");
        }
    }

    @Test
    void aReadOnlyDiskFilesystemGivesUnknownWithTheErrno() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = freshDir("readonly");
            mounts.loopExt4(base.resolve("readonly.img"), 16, dir, "ro");
            CheckResult r = check(dir, OPTIONS);
            assertThat(r.verdict()).isEqualTo(Verdict.UNKNOWN);
            assertThat(r.costs()).isEmpty();
            Finding f = finding(r, FindingCode.PROBE_FAILED);
            assertThat(f.message()).startsWith("cannot probe " + dir + ": open(" + dir + "/.flushcheck-")
                    .endsWith(".probe) failed: Read-only file system (errno 30)");
            assertThat(f.evidence()).isEqualTo(Map.of("errno", "30"));
        }
    }

    @Test
    void aReadOnlyTmpfsIsStillNoRealFlushWhenProbedAnyway() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = mounts.tmpfs(freshDir("readonly-tmpfs"), "size=1m");
            mounts.remount(dir, "ro");
            assertThat(check(dir, OPTIONS).verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            CheckResult r = check(dir, ALWAYS_PROBE);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(codes(r)).contains(FindingCode.RAM_FILESYSTEM, FindingCode.PROBE_FAILED);
            assertThat(finding(r, FindingCode.PROBE_FAILED).message()).endsWith("failed: Read-only file system (errno 30)");
        }
    }

    @Test
    void aFullFilesystemGivesUnknownWithNoSpaceLeft() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path dir = freshDir("full");
            mounts.loopExt4(base.resolve("full.img"), 8, dir, "defaults");
            Path filler = dir.resolve("filler");
            // Root may use the reserved blocks too: fill in big blocks, then the remainder in small ones.
            io.flushcheck.testing.Shell.exec(List.of("dd", "if=/dev/zero", "of=" + filler, "bs=1M", "count=64"));
            io.flushcheck.testing.Shell.exec(List.of("dd", "if=/dev/zero", "of=" + filler, "bs=1k", "count=65536",
                    "oflag=append", "conv=notrunc"));
            io.flushcheck.testing.Shell.run("sync", "-f", filler.toString());
            assertThat(Files.getFileStore(dir).getUsableSpace()).isLessThan(4096);
            CheckResult r = check(dir, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.UNKNOWN);
            assertThat(r.costs()).isEmpty();
            Finding f = finding(r, FindingCode.PROBE_FAILED);
            assertThat(f.message()).startsWith("cannot probe " + dir + ": ")
                    .endsWith("failed: No space left on device (errno 28)");
            assertThat(f.evidence()).isEqualTo(Map.of("errno", "28"));
            try (var s = Files.list(dir)) {
                assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("filler", "lost+found");
            }
        }
    }

    @Test
    void aChildJvmUnderEatmydataIsNoRealFlush() throws IOException {
        Requirements.requireCommand("eatmydata", "eatmydata");
        Path dir = freshDir("eatmydata");
        List<String> wrapper = List.of("eatmydata");
        ChildJvm.Result decided = ChildJvm.run(ChildJvm.command(wrapper, "io.flushcheck.cli.Main",
                List.of("--json", "--rounds", String.valueOf(ROUNDS), dir.toString())), 60);
        assertThat(decided.exit()).as("%s", decided).isZero();
        Map<String, Object> result = onlyResult(decided.stdout());
        assertThat(result.get("verdict")).isEqualTo("NO_REAL_FLUSH");
        assertThat(codesOf(result)).contains("SYNC_INTERPOSER", "NOT_PROBED");
        assertThat(MiniJson.array(result.get("costs"))).isEmpty();
        assertThat(messageOf(result, "SYNC_INTERPOSER")).startsWith("eatmydata is loaded in this process (")
                .endsWith("): fsync, fdatasync and O_DSYNC return without syncing");

        ChildJvm.Result probed = ChildJvm.run(ChildJvm.command(wrapper, "io.flushcheck.cli.Main",
                List.of("--json", "--always-probe", "--modes", "overwrite-fdatasync,append-fsync", "--rounds",
                        String.valueOf(ROUNDS), dir.toString())), 60);
        assertThat(probed.exit()).as("%s", probed).isZero();
        Map<String, Object> p = onlyResult(probed.stdout());
        assertThat(p.get("verdict")).isEqualTo("NO_REAL_FLUSH");
        assertThat(codesOf(p)).contains("SYNC_INTERPOSER").doesNotContain("FLUSHES_REACHED");
        // Each mode's flushes are judged missing, by the counts or by the brackets alone. The counts of the shared
        // disk are other work's too, and a loop stalled under load gathers more of them: the brackets, each sync's
        // own against idle ones of the same lengths, show that most of the syncs met no flush at all.
        for (Object c : MiniJson.array(p.get("costs"))) {
            String mode = (String) MiniJson.object(c).get("mode");
            Map<String, Object> evidence = missingEvidence(p, mode);
            if (evidence.containsKey("syncsWithoutFlush")) {
                assertThat(Long.parseLong((String) evidence.get("syncsWithoutFlush"))).as("%s: %s", mode, evidence)
                        .isGreaterThan(ROUNDS / 2);
            }
        }
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }

    /** The evidence of the finding that judges {@code mode}'s flushes missing, by the counts or by the brackets. */
    static Map<String, Object> missingEvidence(Map<String, Object> result, String mode) {
        return MiniJson.array(result.get("findings")).stream().map(MiniJson::object)
                .filter(f -> List.of("FLUSHES_MISSING", "SYNCS_WITHOUT_FLUSH").contains(f.get("code")))
                .map(f -> MiniJson.object(f.get("evidence"))).filter(e -> mode.equals(e.get("mode"))).findFirst()
                .orElseThrow(() -> new AssertionError("no finding of missing flushes for " + mode + " in "
                        + result.get("findings")));
    }

    static Map<String, Object> onlyResult(String json) {
        List<Object> results = MiniJson.array(MiniJson.object(MiniJson.parse(json)).get("results"));
        assertThat(results).hasSize(1);
        return MiniJson.object(results.get(0));
    }

    static List<String> codesOf(Map<String, Object> result) {
        return MiniJson.array(result.get("findings")).stream().map(f -> (String) MiniJson.object(f).get("code")).toList();
    }

    static String messageOf(Map<String, Object> result, String code) {
        return MiniJson.array(result.get("findings")).stream().map(MiniJson::object)
                .filter(f -> code.equals(f.get("code"))).map(f -> (String) f.get("message")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + code + " in " + result.get("findings")));
    }
}

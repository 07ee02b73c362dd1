package io.flushcheck;

import static io.flushcheck.testing.Checks.check;
import static io.flushcheck.testing.Checks.codes;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.MountTable;
import io.flushcheck.testing.Checks;
import io.flushcheck.testing.DiskLoad;
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
 * Layouts where the obvious reading of the mount table or the counters gives the wrong verdict,
 * built for real: mounts covered by later ones, a loop device on a loop device whose filesystem has
 * barriers off, FUSE daemons that pass syncs on or swallow them, and disks busy with other work.
 */
class StorageLayoutTests {

    private static final int ROUNDS = 64;
    private static final ProbePlan PLAN = new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC),
            4096, ROUNDS, false, 3);
    // As the check behind @RequiresRealFlush runs: each mode ends once its brackets decide it.
    private static final CheckOptions OPTIONS = new CheckOptions(PLAN, Thresholds.DEFAULT, false, true);
    private static final CheckOptions ALWAYS_PROBE = new CheckOptions(PLAN, Thresholds.DEFAULT, true);

    private static Path base;

    @BeforeAll
    static void baseDir() throws IOException {
        base = Files.createDirectories(Path.of("target", "layouts").toAbsolutePath());
    }

    private static Path freshDir(String name) throws IOException {
        return Checks.freshDir(base, name);
    }

    private static String message(CheckResult r, FindingCode code) {
        return Checks.finding(r, code).message();
    }

    /** The filesystem type of the mount serving {@code dir}, as the kernel answers stat -f. */
    private static String kernelFsType(Path dir) {
        return io.flushcheck.testing.Shell.run("stat", "-f", "-c", "%T", dir.toString()).trim();
    }

    @Test
    void aDiskBindCoveredByATmpfsIsJudgedAsTheTmpfs() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path x = freshDir("covered-x");
            mounts.bind(freshDir("covered-disk"), x.resolve("a"));
            mounts.tmpfs(x, "size=1m");
            Path a = Files.createDirectories(x.resolve("a"));
            assertThat(kernelFsType(a)).isEqualTo("tmpfs");

            CheckResult r = check(a, OPTIONS);
            assertThat(r.facts().fsType()).isEqualTo("tmpfs");
            assertThat(r.facts().mount().mountPoint()).isEqualTo(x.toString());
            assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(codes(r)).startsWith(FindingCode.RAM_FILESYSTEM);
        }
    }

    @Test
    void aTmpfsCoveredByADiskBindIsJudgedAsTheDisk() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path s = freshDir("covering-s");
            mounts.tmpfs(s.resolve("a"), "size=1m");
            Path disk = freshDir("covering-disk");
            mounts.bind(disk, s);
            Path a = Files.createDirectories(s.resolve("a"));
            assertThat(kernelFsType(a)).isNotEqualTo("tmpfs");

            CheckResult r = check(a, OPTIONS);
            assertThat(r.facts().mount().mountPoint()).isEqualTo(s.toString());
            assertThat(r.facts().fsType()).isEqualTo(MountTable.live().mountOf(disk.toString()).fsType());
            assertThat(codes(r)).doesNotContain(FindingCode.RAM_FILESYSTEM);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        }
    }

    @Test
    void aLoopDeviceOnAFilesystemWithoutBarriersCannotFlushAndEveryLevelIsCounted() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path outer = freshDir("nested-outer");
            String outerLoop = name(mounts.loopExt4(base.resolve("nested-outer.img"), 96, outer, "nobarrier"));
            Path inner = freshDir("nested-inner");
            String innerLoop = name(mounts.loopExt4(outer.resolve("inner.img"), 48, inner, "defaults"));

            CheckResult r = check(inner, OPTIONS);
            assertThat(r.facts().flushPoints()).extracting(BlockDevice::name).startsWith(innerLoop, outerLoop).hasSizeGreaterThan(2);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(r.costs()).isEmpty();
            assertThat(message(r, FindingCode.BARRIERS_OFF)).contains(innerLoop + " is a loop device whose backing file "
                    + outer.resolve("inner.img") + " is on ext4 mounted with nobarrier (" + outer);

            // Measured anyway while other work flushes the disk below: the level without barriers shows
            // no flush, so none reached the bottom, however many the disk completed for others.
            try (DiskLoad load = DiskLoad.thread(base, 0).awaitSyncs(50)) {
                CheckResult probed = check(inner, ALWAYS_PROBE);
                assertThat(probed.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
                assertThat(codes(probed)).contains(FindingCode.FLUSHES_MISSING).doesNotContain(FindingCode.FLUSHES_REACHED);
                for (SyncCost c : probed.costs()) {
                    // Each sync's bracket shows it too: no flush got past the level without barriers while it ran.
                    assertThat(c.brackets().syncsWithoutFlush()).as("%s syncs without a flush", c.mode()).isEqualTo(ROUNDS);
                }
                for (SyncCost c : probed.costs()) {
                    assertThat(c.devices()).extracting(DeviceDelta::device).startsWith(innerLoop, outerLoop);
                    assertThat(c.devices().get(0).delta().flushes()).as("%s at %s", c.mode(), innerLoop).isGreaterThanOrEqualTo(ROUNDS);
                    assertThat(c.devices().get(1).delta().flushes()).as("%s at %s", c.mode(), outerLoop).isZero();
                    assertThat(c.flushesReached()).isZero();
                }
                assertThat(load.syncs()).isPositive();
            }
        }
    }

    @Test
    void aFusePassthroughThatSyncsReachesTheDisk() throws IOException {
        requireFuse();
        Requirements.requireCommand("bindfs", "bindfs");
        try (Mounts mounts = new Mounts()) {
            Path source = freshDir("bindfs-source");
            Path dir = mounts.fuse(List.of("bindfs", "-f", source.toString(), freshDir("bindfs").toString()),
                    base.resolve("bindfs"));
            CheckResult r = check(dir, OPTIONS);
            assertThat(r.facts().fsType()).isEqualTo("fuse");
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(codes(r)).startsWith(FindingCode.FLUSHES_REACHED).contains(FindingCode.FUSE_DAEMON)
                    .doesNotContain(FindingCode.NETWORK_FILESYSTEM);
            assertThat(message(r, FindingCode.FUSE_DAEMON)).contains("a FUSE daemon decides what a sync does there");
        }
    }

    @Test
    void aFuseDaemonThatSwallowsSyncsIsNeverRealFlushEvenWhileTheDiskBelowIsBusy() throws IOException {
        requireFuse();
        Path script = passthroughScript();
        try (Mounts mounts = new Mounts()) {
            Path source = freshDir("swallow-source");
            Path dir = mounts.fuse(List.of("/usr/bin/python3", script.toString(), "--swallow-fsync", source.toString(),
                    freshDir("swallow").toString()), base.resolve("swallow"));
            CheckResult quiet = check(dir, OPTIONS);
            assertThat(quiet.verdict()).as("%s", quiet.judgement().findings()).isEqualTo(Verdict.UNKNOWN);
            assertThat(codes(quiet)).contains(FindingCode.FUSE_DAEMON, FindingCode.NO_LOCAL_FLUSHES);
            assertThat(message(quiet, FindingCode.NO_LOCAL_FLUSHES)).contains(ROUNDS + " syncs caused ")
                    .contains("either swallows them or sends them elsewhere");

            // fio's jobs append and fdatasync on the disk below, in a process of their own, as in a shared CI.
            // Rounds of 256 KiB: each takes the daemon long enough for the load's flushes to outnumber the syncs.
            try (DiskLoad load = DiskLoad.fio(base, 4)) {
                // On a shared machine fio may be descheduled through a whole mode's rounds: every attempt must be
                // judged right, and one at least must have run with the load's flushes in every mode.
                long raw = 0;
                for (int attempt = 1; attempt <= 3 && raw < ROUNDS / 2; attempt++) {
                    CheckResult busy = check(dir, new CheckOptions(PLAN.withBlockSize(256 << 10), Thresholds.DEFAULT, false));
                    assertThat(busy.verdict()).as("%s", busy.judgement().findings()).isNotEqualTo(Verdict.REAL_FLUSH);
                    assertThat(codes(busy)).doesNotContain(FindingCode.FLUSHES_REACHED);
                    raw = busy.costs().stream().mapToLong(SyncCost::flushesReached).min().orElseThrow();
                    System.out.printf("swallowing FUSE on a busy disk, attempt %d: %d flushes counted for %d syncs, %s%n",
                            attempt, raw, ROUNDS, busy.costs().stream()
                                    .map(c -> c.mode().id() + " background " + Math.round(c.backgroundFlushes())).toList());
                    if (raw >= ROUNDS / 2) {
                        assertThat(codes(busy)).contains(FindingCode.OTHER_DEVICE_WORK);
                    }
                }
                // The disks did complete flushes meanwhile, enough to pass as the syncs' own if counted raw.
                assertThat(raw).as("flushes counted during the rounds (the load's)").isGreaterThanOrEqualTo(ROUNDS / 2);
                assertThat(load.running()).isTrue();
            }
        }
    }

    @Test
    void aBusyDiskIsSaidToBeBusyAndTheSyncsAreCreditedOnlyWithTheirOwnFlushes() throws IOException {
        Path dir = freshDir("busy");
        // About a thousand syncs a second beside the probe: busy, not saturated. (A saturated device completes
        // as many flushes with the probe as without it, and no counter can tell whose they are: UNKNOWN.)
        try (DiskLoad load = DiskLoad.thread(base, 1000).awaitSyncs(50)) {
            // 256 rounds: idle windows long enough that the load is certain to show in them.
            CheckResult r = check(dir, new CheckOptions(PLAN.withRounds(256), Thresholds.DEFAULT, false));
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(codes(r)).contains(FindingCode.OTHER_DEVICE_WORK);
            for (SyncCost c : r.costs()) {
                assertThat(c.backgroundFlushes()).as("%s background", c.mode()).isPositive();
                assertThat(c.flushesReached()).as("%s raw", c.mode()).isGreaterThan(Math.round(c.flushesCaused()));
                assertThat(c.flushesPerSync()).as("%s per sync", c.mode()).isBetween(0.5, 3.0);
                System.out.printf("busy disk: %s %d flushes counted, about %d from other work, %.2f per sync%n",
                        c.mode().id(), c.flushesReached(), Math.round(c.backgroundFlushes()), c.flushesPerSync());
            }
            assertThat(message(r, FindingCode.OTHER_DEVICE_WORK)).contains("served other work during the probe")
                    .contains("came from elsewhere");
            assertThat(load.syncs()).isPositive();
        }
    }

    private static void requireFuse() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static Path passthroughScript() throws IOException {
        Requirements.require(Files.isExecutable(Path.of("/usr/bin/python3")) && io.flushcheck.testing.Shell.exec(
                List.of("/usr/bin/python3", "-c", "import fusepy")).exit() == 0,
                "Debian's python3 with fusepy (apt-get install python3-fusepy)");
        Path script = base.resolve("passthrough.py");
        try (var in = StorageLayoutTests.class.getResourceAsStream("/fuse/passthrough.py")) {
            Files.write(script, in.readAllBytes());
        }
        return script;
    }

    private static String name(String device) {
        return Path.of(device).getFileName().toString();
    }
}

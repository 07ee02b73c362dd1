package io.flushcheck;

import static io.flushcheck.testing.Checks.check;
import static io.flushcheck.testing.Checks.codes;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.testing.Checks;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.FindingCode;
import io.flushcheck.verdict.Thresholds;
import io.flushcheck.verdict.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every device a filesystem writes to, built for real: a loop device whose backing file is on a filesystem
 * without a block device of its own, or on one whose device is itself in memory; btrfs across a disk-backed
 * and a RAM-backed loop device; an ext4 journal and an xfs log on a RAM-backed loop device; a tmpfs reached
 * through another mount namespace's {@code /proc/PID/root}. Each beside its honest twin, which stays
 * REAL_FLUSH. RAM-backed loop devices keep their files in /dev/shm.
 */
class DeviceGraphTests {

    private static final int ROUNDS = 64;
    private static final ProbePlan PLAN = new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC),
            4096, ROUNDS, false, 3);
    private static final CheckOptions OPTIONS = new CheckOptions(PLAN, Thresholds.DEFAULT, false);
    private static final CheckOptions ALWAYS_PROBE = new CheckOptions(PLAN, Thresholds.DEFAULT, true);
    private static final Path SHM = Path.of("/dev/shm");

    private static Path base;

    @BeforeAll
    static void baseDir() throws IOException {
        base = Files.createDirectories(Path.of("target", "graphs").toAbsolutePath());
    }

    private static Path dir(String name) throws IOException {
        return Checks.freshDir(base, name);
    }

    private static Path ram(String name) {
        return SHM.resolve("flushcheck-graph-" + ProcessHandle.current().pid() + "-" + name + ".img");
    }

    private static String name(String device) {
        return Path.of(device).getFileName().toString();
    }

    private static String said(CheckResult r) {
        return r.judgement().findings().stream().map(Finding::message).collect(Collectors.joining("\n"));
    }

    private static void requireTool(String command, String pkg) {
        Mounts.requireMountTools();
        Requirements.requireCommand(command, pkg);
    }

    /** ext4 on a loop device over {@code image}, mounted on {@code dir}; the loop device's name. */
    private static String ext4OnLoop(Mounts mounts, Path image, Path dir) throws IOException {
        String loop = mounts.loopFile(image, 64);
        mounts.mkfsAndMount(List.of("mkfs.ext4", "-q", "-F", loop), "ext4", loop, dir, "defaults");
        return name(loop);
    }

    /** btrfs on one loop device over {@code image}, mounted on {@code dir}; the loop device's name. */
    private static String btrfsOnLoop(Mounts mounts, Path image, Path dir) throws IOException {
        String loop = mounts.loopFile(image, 160);
        mounts.mkfsAndMount(List.of("mkfs.btrfs", "-q", "-f", loop), "btrfs", loop, dir, "defaults");
        return name(loop);
    }

    @Test
    void aLoopFileOnBtrfsWhoseDeviceIsInMemoryIsNotDurable() throws IOException {
        requireTool("mkfs.btrfs", "btrfs-progs");
        try (Mounts mounts = new Mounts()) {
            String ramLoop = btrfsOnLoop(mounts, ram("btrfs"), dir("btrfs-on-ram"));
            Path data = dir("ext4-on-btrfs-on-ram");
            String top = ext4OnLoop(mounts, base.resolve("btrfs-on-ram").resolve("inner.img"), data);

            CheckResult r = check(data, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(codes(r)).startsWith(FindingCode.RAM_BLOCK_DEVICE);
            assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(top).contains(ramLoop)
                    .contains("/dev/shm");
        }
    }

    @Test
    void aLoopFileOnBtrfsOnADiskFileIsDurableAndEveryLevelIsCounted() throws IOException {
        requireTool("mkfs.btrfs", "btrfs-progs");
        try (Mounts mounts = new Mounts()) {
            String diskLoop = btrfsOnLoop(mounts, base.resolve("btrfs-disk.img"), dir("btrfs-on-disk"));
            Path data = dir("ext4-on-btrfs-on-disk");
            String top = ext4OnLoop(mounts, base.resolve("btrfs-on-disk").resolve("inner.img"), data);

            CheckResult r = check(data, OPTIONS);
            assertThat(r.facts().flushPoints()).extracting(BlockDevice::name).startsWith(top, diskLoop);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
            assertThat(Checks.finding(r, FindingCode.FLUSHES_REACHED).message()).contains(top).contains(diskLoop);
        }
    }

    @Test
    void aLoopFileOnAnOverlayWithATmpfsUpperLayerIsNotDurable() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path upper = mounts.tmpfs(dir("ovl-upper"), "size=128m");
            Path overlay = mounts.overlay(dir("ovl-lower"), upper.resolve("upper"), upper.resolve("work"), dir("ovl"));
            Path data = dir("ext4-on-ovl");
            String top = ext4OnLoop(mounts, overlay.resolve("inner.img"), data);

            CheckResult r = check(data, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(top).contains("overlay")
                    .contains("tmpfs");
        }
    }

    @Test
    void aLoopFileOnAFuseDaemonThatSwallowsSyncsIsNeverRealFlush() throws IOException {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(Files.isExecutable(Path.of("/usr/bin/python3")) && Shell.exec(
                List.of("/usr/bin/python3", "-c", "import fusepy")).exit() == 0,
                "Debian's python3 with fusepy (apt-get install python3-fusepy)");
        Path script = base.resolve("passthrough.py");
        try (var in = DeviceGraphTests.class.getResourceAsStream("/fuse/passthrough.py")) {
            Files.write(script, in.readAllBytes());
        }
        try (Mounts mounts = new Mounts()) {
            Path fuse = mounts.fuse(List.of("/usr/bin/python3", script.toString(), "--swallow-fsync",
                    dir("fuse-source").toString(), dir("fuse").toString()), base.resolve("fuse"));
            Path data = dir("ext4-on-fuse");
            String top = ext4OnLoop(mounts, fuse.resolve("inner.img"), data);

            CheckResult r = check(data, OPTIONS);
            // The loop device counted a flush for every sync; the daemon below it kept none of them.
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.UNKNOWN);
            assertThat(codes(r)).startsWith(FindingCode.UNCOUNTED_LEVEL);
            assertThat(Checks.finding(r, FindingCode.UNCOUNTED_LEVEL).message()).contains(top).contains("fuse");
        }
    }

    /** btrfs with data {@code profile} across loop devices over {@code first} and {@code second}. */
    private static Path btrfsAcross(Mounts mounts, String profile, Path first, Path second, Path dir) throws IOException {
        String a = mounts.loopFile(first, 160);
        String b = mounts.loopFile(second, 160);
        return mounts.mkfsAndMount(List.of("mkfs.btrfs", "-q", "-f", "-d", profile, "-m", "raid1", a, b), "btrfs", a,
                dir, "device=" + b);
    }

    @Test
    void btrfsWithADeviceInMemoryIsNotDurableWhicheverDeviceMountinfoNames() throws IOException {
        requireTool("mkfs.btrfs", "btrfs-progs");
        for (String profile : List.of("raid0", "raid1")) {
            for (boolean ramFirst : List.of(false, true)) {
                try (Mounts mounts = new Mounts()) {
                    Path disk = base.resolve("multi-disk.img");
                    Path ram = ram("multi");
                    Path fs = btrfsAcross(mounts, profile, ramFirst ? ram : disk, ramFirst ? disk : ram,
                            dir("multi-" + profile));
                    String ramLoop = Shell.run("losetup", "-j", ram.toString(), "-O", "NAME", "-n").trim();

                    CheckResult r = check(fs, OPTIONS);
                    assertThat(r.verdict()).as("%s ram first %s: %s", profile, ramFirst, r.judgement().findings())
                            .isEqualTo(Verdict.NO_REAL_FLUSH);
                    assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(name(ramLoop));
                }
            }
        }
    }

    @Test
    void btrfsAcrossTwoDiskFilesIsDurableAndBothDevicesAreCounted() throws IOException {
        requireTool("mkfs.btrfs", "btrfs-progs");
        for (String profile : List.of("raid0", "raid1")) {
            try (Mounts mounts = new Mounts()) {
                Path fs = btrfsAcross(mounts, profile, base.resolve("multi-a.img"), base.resolve("multi-b.img"),
                        dir("multi-honest-" + profile));
                String a = name(Shell.run("losetup", "-j", base.resolve("multi-a.img").toString(), "-O", "NAME", "-n").trim());
                String b = name(Shell.run("losetup", "-j", base.resolve("multi-b.img").toString(), "-O", "NAME", "-n").trim());

                CheckResult r = check(fs, OPTIONS);
                assertThat(r.facts().flushPoints()).extracting(BlockDevice::name).contains(a, b);
                assertThat(r.verdict()).as("%s: %s", profile, r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
                assertThat(Checks.finding(r, FindingCode.FLUSHES_REACHED).message()).contains(a).contains(b);
            }
        }
    }

    /** ext4 on a loop device over a disk file with its journal on a loop device over {@code journal}. */
    private static Path ext4WithJournal(Mounts mounts, Path journal, Path dir) throws IOException {
        String j = mounts.loopFile(journal, 64);
        Shell.run("mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "journal_dev", j);
        String d = mounts.loopFile(base.resolve("journal-data.img"), 128);
        return mounts.mkfsAndMount(List.of("mkfs.ext4", "-q", "-F", "-b", "4096", "-J", "device=" + j, d), "ext4", d,
                dir, "defaults");
    }

    @Test
    void ext4WithItsJournalInMemoryIsNotDurable() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path fs = ext4WithJournal(mounts, ram("journal"), dir("journal-ram"));
            String j = name(Shell.run("losetup", "-j", ram("journal").toString(), "-O", "NAME", "-n").trim());

            CheckResult r = check(fs, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(j).contains("journal");
        }
    }

    @Test
    void ext4WithItsJournalOnADiskFileIsDurable() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path journal = base.resolve("journal-disk.img");
            Path fs = ext4WithJournal(mounts, journal, dir("journal-disk"));
            String j = name(Shell.run("losetup", "-j", journal.toString(), "-O", "NAME", "-n").trim());

            CheckResult r = check(fs, OPTIONS);
            assertThat(r.facts().otherDevices()).extracting(BlockDevice::name).containsExactly(j);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        }
    }

    /** xfs on a loop device over a disk file with its log on a loop device over {@code log}. */
    private static Path xfsWithLog(Mounts mounts, Path log, Path dir) throws IOException {
        String l = mounts.loopFile(log, 80);
        String d = mounts.loopFile(base.resolve("log-data.img"), 320);
        return mounts.mkfsAndMount(List.of("mkfs.xfs", "-q", "-f", "-l", "logdev=" + l + ",size=64m", d), "xfs", d, dir,
                "logdev=" + l);
    }

    @Test
    void xfsWithItsLogInMemoryIsNotDurable() throws IOException {
        requireTool("mkfs.xfs", "xfsprogs");
        try (Mounts mounts = new Mounts()) {
            Path fs = xfsWithLog(mounts, ram("log"), dir("log-ram"));
            String l = name(Shell.run("losetup", "-j", ram("log").toString(), "-O", "NAME", "-n").trim());

            CheckResult r = check(fs, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(l).contains("log");
        }
    }

    @Test
    void xfsWithItsLogOnADiskFileIsDurable() throws IOException {
        requireTool("mkfs.xfs", "xfsprogs");
        try (Mounts mounts = new Mounts()) {
            Path log = base.resolve("log-disk.img");
            Path fs = xfsWithLog(mounts, log, dir("log-disk"));
            String l = name(Shell.run("losetup", "-j", log.toString(), "-O", "NAME", "-n").trim());

            CheckResult r = check(fs, OPTIONS);
            assertThat(r.facts().otherDevices()).extracting(BlockDevice::name).containsExactly(l);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        }
    }

    @Test
    void aTmpfsReachedThroughAnotherMountNamespaceIsJudgedThereAndProbedThere() throws IOException {
        Mounts.requireMountTools();
        Requirements.requireCommand("unshare", "util-linux");
        try (Mounts mounts = new Mounts()) {
            Path shared = dir("ns-shared");
            Path inner = dir("ns-tmpfs");
            long pid = mounts.namespaceWithTmpfs(inner);
            Path there = Path.of("/proc/" + pid + "/root" + inner);
            Files.writeString(inner.resolve("here-only"), "x");
            assertThat(there.resolve("here-only")).doesNotExist();

            CheckResult r = check(there, OPTIONS);
            assertThat(r.facts().fsType()).isEqualTo("tmpfs");
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(codes(r)).startsWith(FindingCode.RAM_FILESYSTEM);

            // A symbolic link that leads there is judged as the path it leads to.
            Path link = base.resolve("ns-link");
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, there);
            try {
                assertThat(check(link, OPTIONS).facts().fsType()).isEqualTo("tmpfs");
            } finally {
                Files.delete(link);
            }

            // Probed anyway, the probe's files are made there, not in this namespace's directory of that name.
            CheckResult probed = check(there, ALWAYS_PROBE);
            assertThat(probed.verdict()).as("%s", probed.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
            assertThat(codes(probed)).doesNotContain(FindingCode.FLUSHES_REACHED);

            // Its honest twin: a disk directory through the same namespace.
            CheckResult twin = check(Path.of("/proc/" + pid + "/root" + shared), OPTIONS);
            assertThat(twin.verdict()).as("%s", twin.judgement().findings()).isEqualTo(Verdict.REAL_FLUSH);
        }
    }

    @Test
    void anAbsoluteSymlinkInAnotherNamespaceLeadsFromThisRootAsTheKernelWalksIt() throws IOException {
        Mounts.requireMountTools();
        Requirements.requireCommand("unshare", "util-linux");
        try (Mounts mounts = new Mounts()) {
            Path inner = dir("ns-links");
            long pid = mounts.namespaceWithTmpfs(inner);
            Path ours = mounts.tmpfs(dir("ns-link-target"), "size=16m");
            // There, data -> ours: the kernel reads an absolute target from the walking process's root, so the
            // path reaches our tmpfs. Here, a disk directory of the same name, which realpath would name instead.
            Path there = Path.of("/proc/" + pid + "/root" + inner);
            Files.createSymbolicLink(there.resolve("data"), ours);
            Files.createDirectories(inner.resolve("data"));

            assertThat(io.flushcheck.storage.KernelPath.resolve(there.resolve("data").toFile())).isEqualTo(ours.toString());
            CheckResult r = check(there.resolve("data"), OPTIONS);
            assertThat(r.facts().fsType()).isEqualTo("tmpfs");
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
        }
    }

    @Test
    void anXfsLogNamedThroughASymlinkIsFollowedToItsDevice() throws IOException {
        requireTool("mkfs.xfs", "xfsprogs");
        try (Mounts mounts = new Mounts()) {
            String l = mounts.loopFile(ram("log-link"), 80);
            String d = mounts.loopFile(base.resolve("log-link-data.img"), 320);
            // As /dev/disk/by-id or /dev/mapper name a device: a link to its node.
            Path link = Path.of("/dev/flushcheck-test-" + ProcessHandle.current().pid() + "-log");
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, Path.of(l));
            try {
                Path fs = mounts.mkfsAndMount(List.of("mkfs.xfs", "-q", "-f", "-l", "logdev=" + link + ",size=64m", d), "xfs",
                        d, dir("log-link"), "logdev=" + link);

                CheckResult r = check(fs, OPTIONS);
                assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
                assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(name(l)).contains("log");
            } finally {
                Files.deleteIfExists(link);
            }
        }
    }

    @Test
    void aLoopFileOnALazilyUnmountedTmpfsIsNeverRealFlush() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            Path tmpfs = mounts.tmpfs(dir("lazy-tmpfs"), "size=128m");
            Path data = dir("ext4-on-lazy-tmpfs");
            String top = ext4OnLoop(mounts, tmpfs.resolve("inner.img"), data);
            // Detached, the tmpfs is in no mount table: the kernel names the file "/inner.img", which here is on the disk.
            Shell.run("umount", "-l", tmpfs.toString());
            assertThat(Shell.run("cat", "/sys/block/" + top + "/loop/backing_file").trim()).isEqualTo("/inner.img");

            CheckResult r = check(data, OPTIONS);
            assertThat(r.verdict()).as("%s", r.judgement().findings()).isNotEqualTo(Verdict.REAL_FLUSH);
            assertThat(Checks.finding(r, FindingCode.UNCOUNTED_LEVEL).message()).contains(top).contains("/inner.img");
        }
    }

    @Test
    void ext4WithItsJournalNamedThroughASymlinkIsFollowed() throws IOException {
        Mounts.requireMountTools();
        try (Mounts mounts = new Mounts()) {
            String j = mounts.loopFile(ram("journal-link"), 64);
            Shell.run("mkfs.ext4", "-q", "-F", "-b", "4096", "-O", "journal_dev", j);
            String d = mounts.loopFile(base.resolve("journal-link-data.img"), 128);
            Path link = Path.of("/dev/flushcheck-test-" + ProcessHandle.current().pid() + "-journal");
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, Path.of(j));
            try {
                Path fs = mounts.mkfsAndMount(List.of("mkfs.ext4", "-q", "-F", "-b", "4096", "-J", "device=" + link, d),
                        "ext4", d, dir("journal-link"), "defaults");
                CheckResult r = check(fs, OPTIONS);
                assertThat(r.verdict()).as("%s", r.judgement().findings()).isEqualTo(Verdict.NO_REAL_FLUSH);
                assertThat(Checks.finding(r, FindingCode.RAM_BLOCK_DEVICE).message()).contains(name(j)).contains("journal");
            } finally {
                Files.deleteIfExists(link);
            }
        }
    }
}

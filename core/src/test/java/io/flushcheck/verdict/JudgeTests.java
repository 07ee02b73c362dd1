package io.flushcheck.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.HostEdge;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.text.Numbers;
import java.util.List;
import org.junit.jupiter.api.Test;

class JudgeTests {

    private static final MountInfo ROOT = MountInfo.parse("27 1 254:0 / / rw - ext4 /dev/vda rw");
    private static final MountInfo LOOP_MOUNT = MountInfo.parse("60 27 7:0 / /mnt/img rw - ext4 /dev/loop0 rw");
    private static final MountInfo NOBARRIER = MountInfo.parse("61 27 7:0 / /mnt/img rw - ext4 /dev/loop0 rw,nobarrier");
    private static final MountInfo SHM = MountInfo.parse("30 25 0:27 / /dev/shm rw - tmpfs tmpfs rw");
    private static final Environment PLAIN = new Environment(null, null, List.of(), List.of());

    private static final BlockDevice VDA = disk("write back");
    private static final BlockDevice LOOP0 = new BlockDevice("loop0", BlockDevice.Kind.LOOP, "write back", false, null,
            null, "/data/img", ROOT, List.of(VDA));

    private static BlockDevice disk(String cache) {
        return new BlockDevice("vda", BlockDevice.Kind.DISK, cache, true, "virtio_blk", null, null, null, List.of());
    }

    private static StorageFacts onVda(BlockDevice vda) {
        return new StorageFacts("/data", "/data", ROOT, vda, null, List.of(vda), null, PLAIN);
    }

    private static StorageFacts onLoop(MountInfo mount) {
        return new StorageFacts("/mnt/img", "/mnt/img", mount, LOOP0, null, List.of(LOOP0, VDA), null, PLAIN);
    }

    /** A cost whose every round took {@code micros}, with the given per-device deltas. */
    private static SyncCost cost(SyncMode mode, int rounds, double micros, DeviceDelta... devices) {
        long[] nanos = new long[rounds];
        java.util.Arrays.fill(nanos, (long) (micros * 1000));
        LatencyDistribution h = LatencyDistribution.ofNanos(nanos);
        return new SyncCost(mode, 4096, rounds, h, (long) (micros * 1000) * rounds, List.of(devices), List.of(), null);
    }

    private static DeviceDelta dev(String name, boolean terminal, long flushes, long kib) {
        return new DeviceDelta(name, terminal, new DeviceStat(0, kib * 2, flushes));
    }

    /** A cost of {@code rounds} syncs over {@code loopMillis}, with idle windows of {@code idleMillis}. */
    private static SyncCost withIdle(int rounds, long loopMillis, long idleMillis, DeviceDelta... devices) {
        return withIdle(SyncMode.OVERWRITE_FDATASYNC, rounds, loopMillis, idleMillis, devices);
    }

    private static SyncCost withIdle(SyncMode mode, int rounds, long loopMillis, long idleMillis, DeviceDelta... devices) {
        long[] nanos = new long[rounds];
        java.util.Arrays.fill(nanos, 200_000);
        LatencyDistribution h = LatencyDistribution.ofNanos(nanos);
        return new SyncCost(mode, 4096, rounds, h, loopMillis * 1_000_000, idleMillis * 1_000_000,
                List.of(devices), List.of(), null);
    }

    private static DeviceDelta busy(String name, boolean terminal, long flushes, long idleFlushes) {
        return new DeviceDelta(name, terminal, new DeviceStat(0, 800, flushes), new DeviceStat(0, 0, idleFlushes));
    }

    private static List<FindingCode> codes(List<Finding> findings) {
        return findings.stream().map(Finding::code).toList();
    }

    @Test
    void otherWorkSeenInTheIdleWindowsIsTakenOffBeforeTheSyncsAreCredited() {
        // 100 syncs in 400 ms saw 140 flushes; as long in idle windows saw 40: other work's.
        SyncCost c = withIdle(100, 400, 400, busy("vda", true, 140, 40));
        assertThat(c.backgroundFlushes()).isEqualTo(40.0);
        assertThat(c.flushesCaused()).isEqualTo(100.0);
        assertThat(c.flushesPerSync()).isEqualTo(1.0);
        // 100, less three deviations of √40 and a quarter of the 40, still clears the 50 the threshold asks for.
        assertThat(c.backgroundDeviation()).isCloseTo(Math.sqrt(40), org.assertj.core.data.Offset.offset(1e-9));
        List<Finding> f = Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).containsExactly(FindingCode.FLUSHES_REACHED, FindingCode.OTHER_DEVICE_WORK);
        assertThat(f.get(0).message()).isEqualTo("syncs reached vda: overwrite-fdatasync: 100 flushes for 100 syncs "
                + "(40 more from other work)");
        assertThat(f.get(1).message()).isEqualTo("overwrite-fdatasync: vda served other work during the probe: of 140 "
                + "flushes counted in 100 syncs, about 40 came from elsewhere (its rate in 400 ms of idle windows between "
                + "the rounds)");
    }

    @Test
    void otherWorkThatRunsFasterWhileTheProbeRunsIsNotCreditedToTheSyncs() {
        // Measured: a FUSE daemon that swallows every sync, under four fio jobs on the disk below. Its 256
        // rounds saw 3254 flushes where the windows predicted 2931: 323 left over, none of them its own.
        SyncCost c = withIdle(256, 318, 318, busy("vda", true, 3254, 2931));
        assertThat(c.flushesCaused()).isEqualTo(323.0);
        List<Finding> f = Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).doesNotContain(FindingCode.FLUSHES_REACHED);
        assertThat(Judge.judge(onVda(VDA), List.of(c), Thresholds.DEFAULT, List.of()).verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void moreFlushesLeftPerSyncThanSyncsCauseAreNotTheSyncsOwn() {
        // Measured: a FUSE daemon that swallows every sync, under four fio jobs on the disk below. 64 rounds
        // saw 1557 flushes where the windows predicted 1123: 434 left, 6.8 a sync, more than any sync causes.
        SyncCost c = withIdle(64, 174, 174, busy("vda", true, 1557, 1123));
        assertThat(c.flushesPerSync()).isGreaterThan(FlushCountRule.MOST_FLUSHES_A_SYNC_EXPLAINS);
        List<Finding> f = Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).containsExactly(FindingCode.OTHER_DEVICE_WORK);
        assertThat(f.get(0).message()).contains("more than a sync causes");
        assertThat(Judge.tooBusyToTell(onVda(VDA), List.of(c), Thresholds.DEFAULT)).containsExactly(SyncMode.OVERWRITE_FDATASYNC);
        assertThat(Judge.judge(onVda(VDA), List.of(c), Thresholds.DEFAULT, List.of()).verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void aSyncOnEachOfTwoMirroredDisksMayCauseTwiceTheFlushes() {
        // Four flushes a sync summed over two terminals (two each) is what a mirror's syncs cause: credited.
        SyncCost c = withIdle(100, 400, 400, busy("sda", true, 210, 5), busy("sdb", true, 210, 5));
        assertThat(c.flushesPerSync()).isGreaterThan(FlushCountRule.MOST_FLUSHES_A_SYNC_EXPLAINS);
        assertThat(codes(Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT))).startsWith(FindingCode.FLUSHES_REACHED);
    }

    /** md0 mirrored on sda and sdb, whose write caches are as given (null: not known). */
    private static StorageFacts onMirror(String sdaCache, String sdbCache) {
        BlockDevice sda = new BlockDevice("sda", BlockDevice.Kind.DISK, sdaCache, true, "ahci", null, null, null, List.of());
        BlockDevice sdb = new BlockDevice("sdb", BlockDevice.Kind.DISK, sdbCache, true, "ahci", null, null, null, List.of());
        BlockDevice md0 = new BlockDevice("md0", BlockDevice.Kind.MD_RAID, null, false, null, null, null, null,
                List.of(sda, sdb));
        return new StorageFacts("/data", "/data", ROOT, md0, null, List.of(md0, sda, sdb), null, PLAIN);
    }

    @Test
    void aDiskAtTheBottomThatFlushedNothingIsNotHiddenByTheOthers() {
        // btrfs across sda and sdb: 200 flushes on sda for 100 syncs would pass for both disks' if summed.
        SyncCost c = withIdle(100, 400, 400, busy("sda", true, 200, 0), busy("sdb", true, 3, 0));
        StorageFacts facts = onMirror("write back", "write back");
        List<Finding> f = Judge.costFindings(facts, List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).containsExactly(FindingCode.FLUSHES_MISSING);
        assertThat(f.get(0).message()).contains("sdb, at the bottom of").contains("completed 3 flushes");
        assertThat(Judge.judge(facts, List.of(c), Thresholds.DEFAULT, List.of()).verdict())
                .isEqualTo(Verdict.NO_REAL_FLUSH);
    }

    @Test
    void aMirrorLegWithoutAVolatileCacheIsNotAskedForFlushes() {
        // The block layer sends a write-through disk no flushes: its count of none is honest.
        SyncCost c = withIdle(100, 400, 400, busy("sda", true, 200, 0), busy("sdb", true, 0, 0));
        StorageFacts facts = onMirror("write back", "write through");
        assertThat(codes(Judge.costFindings(facts, List.of(c), Thresholds.DEFAULT))).doesNotContain(FindingCode.FLUSHES_MISSING);
        assertThat(Judge.judge(facts, List.of(c), Thresholds.DEFAULT, List.of()).verdict()).isEqualTo(Verdict.REAL_FLUSH);
    }

    @Test
    void aMirrorLegWhoseCacheIsNotKnownShowsNeitherWay() {
        SyncCost c = withIdle(100, 400, 400, busy("sda", true, 200, 0), busy("sdb", true, 0, 0));
        StorageFacts facts = onMirror("write back", null);
        List<Finding> f = Judge.costFindings(facts, List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).contains(FindingCode.UNCOUNTED_LEVEL).doesNotContain(FindingCode.FLUSHES_MISSING);
        assertThat(Judge.judge(facts, List.of(c), Thresholds.DEFAULT, List.of()).verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void aModeWhoseFlushesReachedDoesNotVouchForAModeThatShowedNone() {
        // A FUSE daemon may pass fsync on and swallow fdatasync: one mode's flushes say nothing of the other's.
        StorageFacts fuse = new StorageFacts("/f", "/f", MountInfo.parse("70 27 0:50 / /f rw - fuse.passthrough fuse rw"),
                null, null, List.of(VDA), null, PLAIN);
        SyncCost passed = cost(SyncMode.APPEND_FSYNC, 100, 300, dev("vda", true, 200, 400));
        SyncCost swallowed = cost(SyncMode.OVERWRITE_FDATASYNC, 100, 300, dev("vda", true, 0, 400));
        Judgement j = Judge.judge(fuse, List.of(passed, swallowed), Thresholds.DEFAULT, List.of());
        assertThat(j.verdict()).as("%s", j.findings()).isEqualTo(Verdict.UNKNOWN);
        assertThat(j.findings()).extracting(Finding::code)
                .contains(FindingCode.FLUSHES_REACHED_IN_SOME_MODES, FindingCode.NO_LOCAL_FLUSHES)
                .doesNotContain(FindingCode.FLUSHES_REACHED);
        assertThat(j.has(FindingCode.FLUSHES_REACHED_IN_SOME_MODES)).isTrue();
    }

    @Test
    void aModeTooBusyToTellLeavesTheVerdictUnknownWhateverTheOthersShowed() {
        SyncCost clear = withIdle(SyncMode.APPEND_FSYNC, 100, 400, 400, busy("vda", true, 140, 40));
        SyncCost noisy = withIdle(100, 400, 100, busy("vda", true, 300, 50));
        Judgement j = Judge.judge(onVda(VDA), List.of(clear, noisy), Thresholds.DEFAULT, List.of());
        assertThat(j.verdict()).as("%s", j.findings()).isEqualTo(Verdict.UNKNOWN);
        assertThat(j.findings().stream().filter(f -> f.code() == FindingCode.FLUSHES_REACHED_IN_SOME_MODES).findFirst()
                .orElseThrow().message()).isEqualTo("syncs reached vda in append-fsync: 100 flushes for "
                + "100 syncs (40 more from other work); but not shown for overwrite-fdatasync, and a verdict needs every "
                + "measured mode's flushes");
    }

    @Test
    void theSameFlushesSampledInShorterIdleWindowsAreTooNoisyToDecide() {
        // A quarter of the idle time: the same rate, four times the deviation (4·√50 = 28), 100 - 85 < 50.
        SyncCost c = withIdle(100, 400, 100, busy("vda", true, 300, 50));
        assertThat(c.flushesCaused()).isEqualTo(100.0);
        assertThat(Judge.tooBusyToTell(onVda(VDA), List.of(c), Thresholds.DEFAULT)).containsExactly(SyncMode.OVERWRITE_FDATASYNC);
        assertThat(Judge.judge(onVda(VDA), List.of(c), Thresholds.DEFAULT, List.of()).verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void flushesThatOtherWorkExplainsAreNeverCreditedToTheSyncs() {
        // As many flushes while syncing as the idle rate predicts: the syncs caused none that can be told apart.
        SyncCost c = withIdle(100, 400, 400, busy("vda", true, 210, 200));
        List<Finding> f = Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).doesNotContain(FindingCode.FLUSHES_REACHED, FindingCode.FLUSHES_MISSING)
                .containsExactly(FindingCode.OTHER_DEVICE_WORK);
        assertThat(f.get(0).message()).endsWith("; 10 left for the syncs is too close to the threshold for that estimate "
                + "to tell: run more rounds, or where the device is quieter");
        assertThat(Judge.judge(onVda(VDA), List.of(c), Thresholds.DEFAULT, List.of()).verdict()).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void tooFewFlushesCountedAreMissingHoweverBusyTheDevice() {
        SyncCost c = withIdle(100, 400, 100, busy("vda", true, 20, 100));
        assertThat(codes(Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT))).contains(FindingCode.FLUSHES_MISSING);
    }

    @Test
    void theLevelThatDecidesBringsItsOwnNoise() {
        // loop0 is ours alone (no idle flushes) and saw none; vda is busy. loop0 decides, without noise.
        SyncCost c = withIdle(100, 400, 100, busy("loop0", false, 0, 0), busy("vda", true, 400, 50));
        assertThat(c.flushesCaused()).isZero();
        assertThat(c.backgroundDeviation()).isZero();
        assertThat(codes(Judge.costFindings(onLoop(LOOP_MOUNT), List.of(c), Thresholds.DEFAULT)))
                .contains(FindingCode.FLUSHES_MISSING);
    }

    @Test
    void morePerSyncThanASyncCausesIsSaidToBeOtherWork() {
        SyncCost c = withIdle(100, 400, 100, busy("vda", true, 500, 0));
        assertThat(c.flushesPerSync()).isEqualTo(5.0);
        List<Finding> f = Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT);
        assertThat(codes(f)).containsExactly(FindingCode.OTHER_DEVICE_WORK);
        assertThat(f.get(0).message()).endsWith("; the 5.0 left per sync are more than a sync causes, so other work the "
                + "idle windows missed is in them too, and they do not show the syncs' own");
    }

    @Test
    void oneFlushPerSyncReachedTheDisk() {
        SyncCost c = cost(SyncMode.OVERWRITE_FDATASYNC, 100, 200, dev("vda", true, 100, 400));
        List<Finding> f = Judge.costFindings(onVda(VDA), List.of(c), Thresholds.DEFAULT);
        assertThat(f).containsExactly(new Finding(FindingCode.FLUSHES_REACHED,
                "syncs reached vda: overwrite-fdatasync: 100 flushes for 100 syncs", java.util.Map.of("device", "vda")));
        assertThat(c.flushesReached()).isEqualTo(100);
        assertThat(c.flushesPerSync()).isEqualTo(1.0);
        assertThat(c.kibWritten()).isEqualTo(400);
        assertThat(c.roundsPerSecond()).isEqualTo(5000.0);
    }

    @Test
    void halfAFlushPerSyncIsTheThreshold() {
        List<Finding> enough = Judge.costFindings(onVda(VDA),
                List.of(cost(SyncMode.APPEND_FSYNC, 100, 500, dev("vda", true, 50, 800))), Thresholds.DEFAULT);
        assertThat(enough).extracting(Finding::code).containsExactly(FindingCode.FLUSHES_REACHED);

        List<Finding> tooFew = Judge.costFindings(onVda(VDA),
                List.of(cost(SyncMode.APPEND_FSYNC, 100, 500, dev("vda", true, 49, 800))), Thresholds.DEFAULT);
        assertThat(tooFew).extracting(Finding::toString).containsExactly(
                "FLUSHES_MISSING: append-fsync: 49 of 100 syncs reached vda as a cache flush (500 µs median)");
        assertThat(tooFew.get(0).evidence()).containsEntry("flushes", "49").containsEntry("syncs", "100")
                .containsEntry("p50Micros", "500");

        List<Finding> strict = Judge.costFindings(onVda(VDA),
                List.of(cost(SyncMode.APPEND_FSYNC, 100, 500, dev("vda", true, 99, 800))), new Thresholds(1.0, 20));
        assertThat(strict).extracting(Finding::code).containsExactly(FindingCode.FLUSHES_MISSING);
    }

    @Test
    void aBusyDiskUnderASilentLoopDeviceIsNotReached() {
        // nobarrier: the loop device saw no flush, even though other work flushed vda 500 times meanwhile.
        SyncCost c = cost(SyncMode.OVERWRITE_FDATASYNC, 100, 300, dev("loop0", false, 0, 400), dev("vda", true, 500, 9000));
        assertThat(c.flushes()).isEqualTo(500);
        assertThat(c.flushesReached()).isZero();
        assertThat(c.kibReached()).isEqualTo(400);
        List<Finding> f = Judge.costFindings(onLoop(LOOP_MOUNT), List.of(c), Thresholds.DEFAULT);
        assertThat(f).extracting(Finding::toString).containsExactly(
                "FLUSHES_MISSING: overwrite-fdatasync: 0 of 100 syncs reached loop0 -> vda as a cache flush (300 µs median)");
    }

    @Test
    void flushesAtBothLevelsOfALoopChainAreReached() {
        SyncCost c = cost(SyncMode.APPEND_FSYNC, 64, 900, dev("loop0", false, 64, 256), dev("vda", true, 70, 600));
        assertThat(c.flushesReached()).isEqualTo(64);
        assertThat(Judge.costFindings(onLoop(LOOP_MOUNT), List.of(c), Thresholds.DEFAULT)).extracting(Finding::message)
                .containsExactly("syncs reached loop0 -> vda: append-fsync: 64 flushes for 64 syncs");
    }

    @Test
    void aFastSyncThatWasCountedIsOnlySuspicious() {
        List<Finding> f = Judge.costFindings(onVda(VDA),
                List.of(cost(SyncMode.DSYNC, 10, 5, dev("vda", true, 10, 40))), Thresholds.DEFAULT);
        assertThat(f).extracting(Finding::toString).containsExactly(
                "FLUSHES_REACHED: syncs reached vda: dsync: 10 flushes for 10 syncs",
                "SUSPICIOUSLY_FAST: dsync takes 5.00 µs in the median, below 20.0 µs, although the device counted its flushes");
    }

    @Test
    void withoutCountersTimingDecidesOnlyWhenFarTooFast() {
        StorageFacts noDevice = new StorageFacts("/x", "/x", ROOT, null, null, List.of(), null, PLAIN);
        assertThat(Judge.costFindings(noDevice, List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 10, 3.5)), Thresholds.DEFAULT))
                .extracting(Finding::toString).containsExactly(
                        "SYNC_TOO_FAST: overwrite-fdatasync takes 3.50 µs in the median, faster than any drive cache "
                                + "flush (threshold 20.0 µs)");
        assertThat(Judge.costFindings(noDevice, List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 10, 250)), Thresholds.DEFAULT))
                .extracting(Finding::toString).containsExactly(
                        "NO_DEVICE_COUNTERS: overwrite-fdatasync takes 250 µs in the median, but no device counters are "
                                + "visible here to show the syncs arriving, and timing alone is weak evidence");
        assertThat(Judge.costFindings(null, List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 10, 3.5)), Thresholds.DEFAULT))
                .extracting(Finding::code).containsExactly(FindingCode.SYNC_TOO_FAST);
    }

    @Test
    void aWriteThroughDeviceNeedsTheBytesNotFlushes() {
        BlockDevice wt = disk("write through");
        List<Finding> ok = Judge.costFindings(onVda(wt),
                List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 100, 80, dev("vda", true, 0, 400))), Thresholds.DEFAULT);
        assertThat(ok).extracting(Finding::toString).containsExactly("WRITES_REACHED_WRITE_THROUGH: vda has no volatile "
                + "write cache and the writes reached it: overwrite-fdatasync: 400 KiB of 400 written");
        List<Finding> missing = Judge.costFindings(onVda(wt),
                List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 100, 80, dev("vda", true, 0, 359))), Thresholds.DEFAULT);
        assertThat(missing).extracting(Finding::toString).containsExactly("WRITES_MISSING: overwrite-fdatasync: 100 syncs "
                + "of 4 KiB wrote only 359 KiB to vda, which has no volatile cache");
        // 90% is enough: 360 of 400
        assertThat(Judge.costFindings(onVda(wt), List.of(cost(SyncMode.OVERWRITE_FDATASYNC, 100, 80,
                dev("vda", true, 0, 360))), Thresholds.DEFAULT)).extracting(Finding::code)
                .containsExactly(FindingCode.WRITES_REACHED_WRITE_THROUGH);
    }

    @Test
    void baselineAndFlushOnlyDoNotVote() {
        List<SyncCost> costs = List.of(cost(SyncMode.NO_SYNC, 10, 3, dev("vda", true, 0, 0)),
                cost(SyncMode.FLUSH_ONLY, 10, 3, dev("vda", true, 0, 0)));
        assertThat(Judge.costFindings(onVda(VDA), costs, Thresholds.DEFAULT)).extracting(Finding::toString)
                .containsExactly("NO_DECIDING_MODE: no measured mode decides the verdict (no-sync, flush-only only inform); "
                        + "measure append-fsync or overwrite-fdatasync too");
        Judgement j = Judge.judge(onVda(VDA), costs, Thresholds.DEFAULT, List.of());
        assertThat(j.verdict()).isEqualTo(Verdict.UNKNOWN);
        assertThat(j.reasons().get(0).code()).as("what was missing comes first").isEqualTo(FindingCode.NO_DECIDING_MODE);
    }

    @Test
    void anyNoRealFlushFindingWinsAndComesFirst() {
        SyncCost good = cost(SyncMode.OVERWRITE_FDATASYNC, 100, 300, dev("loop0", false, 100, 400), dev("vda", true, 100, 400));
        SyncCost bad = cost(SyncMode.APPEND_FSYNC, 100, 300, dev("loop0", false, 0, 400), dev("vda", true, 100, 400));
        Judgement j = Judge.judge(onLoop(LOOP_MOUNT), List.of(good, bad), Thresholds.DEFAULT, List.of());
        assertThat(j.verdict()).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(j.findings()).extracting(Finding::code)
                .containsExactly(FindingCode.FLUSHES_MISSING, FindingCode.VIRTUAL_DISK, FindingCode.FLUSHES_REACHED_IN_SOME_MODES);
        assertThat(j.summary()).isEqualTo("append-fsync: 0 of 100 syncs reached loop0 -> vda as a cache flush (300 µs median)");
    }

    @Test
    void nobarrierIsDecidedStatically() {
        List<Finding> s = Judge.staticFindings(onLoop(NOBARRIER));
        assertThat(s).extracting(Finding::toString).containsExactly("BARRIERS_OFF: /mnt/img is on ext4 mounted with "
                + "nobarrier (/mnt/img, mount 61): the filesystem sends no cache flushes to loop0 -> vda",
                "VIRTUAL_DISK: flushes end at vda, a virtual disk (virtio_blk): whether the host persists them is "
                        + "beyond this guest's edge; compare with a probe on the host");
        assertThat(Judge.decidedWithoutProbe(s)).isTrue();
    }

    private static StorageFacts onVdaWithHostEdge(String statement) {
        Environment env = new Environment(null, "kvm", List.of(), List.of(), HostEdge.parse(statement));
        return new StorageFacts("/data", "/data", ROOT, VDA, null, List.of(VDA), null, env);
    }

    @Test
    void aGuestDiskWhoseFlushesTheHostSaysItNeverGotIsDecidedStatically() {
        List<Finding> s = Judge.staticFindings(onVdaWithHostEdge("vda:missing:cache=unsafe, 0 of 64 flushes reached loop3"));
        assertThat(s).extracting(Finding::toString).containsExactly("HOST_FLUSHES_MISSING: flushes end at vda, a virtual "
                + "disk (virtio_blk), and the host that runs this guest measured that they do not reach its disk: "
                + "cache=unsafe, 0 of 64 flushes reached loop3");
        assertThat(Judge.decidedWithoutProbe(s)).isTrue();
        SyncCost reached = cost(SyncMode.OVERWRITE_FDATASYNC, 64, 300, dev("vda", true, 64, 256));
        Judgement j = Judge.judge(onVdaWithHostEdge("vda:missing:0 of 64"), List.of(reached), Thresholds.DEFAULT, List.of());
        assertThat(j.verdict()).as("the guest's own counters cannot outvote the host").isEqualTo(Verdict.NO_REAL_FLUSH);
    }

    @Test
    void aHostThatSawTheFlushesAddsItsEvidenceAndLeavesTheVerdictToTheProbe() {
        List<Finding> s = Judge.staticFindings(onVdaWithHostEdge("vda:reached:cache=none, 64 of 64"));
        assertThat(s).extracting(Finding::toString).containsExactly("VIRTUAL_DISK: flushes end at vda, a virtual disk "
                + "(virtio_blk), and the host that runs this guest measured that they reach its disk: cache=none, 64 of 64");
        assertThat(Judge.decidedWithoutProbe(s)).isFalse();
        Judgement none = Judge.judge(onVdaWithHostEdge("vda:reached:64 of 64"), List.of(), Thresholds.DEFAULT, List.of());
        assertThat(none.verdict()).as("the host's word alone never makes REAL_FLUSH").isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void aStatementAboutAnotherDiskChangesNothing() {
        assertThat(Judge.staticFindings(onVdaWithHostEdge("vdb:missing:0 of 64"))).extracting(Finding::code)
                .containsExactly(FindingCode.VIRTUAL_DISK);
    }

    @Test
    void tmpfsIsDecidedStatically() {
        StorageFacts shm = new StorageFacts("/dev/shm", "/dev/shm", SHM, null, null, List.of(), null, PLAIN);
        List<Finding> s = Judge.staticFindings(shm);
        assertThat(s).extracting(Finding::toString)
                .containsExactly("RAM_FILESYSTEM: /dev/shm is on tmpfs (/dev/shm, mount 30): syncs reach no device");
        assertThat(Judge.decidedWithoutProbe(s)).isTrue();
    }

    @Test
    void aLoopFileOnTmpfsIsARamBlockDevice() {
        BlockDevice loopOnShm = new BlockDevice("loop3", BlockDevice.Kind.LOOP, "write back", false, null, null,
                "/dev/shm/img", SHM, List.of());
        StorageFacts f = new StorageFacts("/mnt/img", "/mnt/img", LOOP_MOUNT, loopOnShm, null, List.of(loopOnShm), null, PLAIN);
        assertThat(Judge.staticFindings(f)).extracting(Finding::toString).containsExactly("RAM_BLOCK_DEVICE: /mnt/img is "
                + "on loop3: loop3 is a loop device whose backing file /dev/shm/img is on tmpfs at /dev/shm: syncs reach no device");
    }

    @Test
    void eatmydataIsDecidedStatically() {
        Environment env = new Environment(null, null, List.of("eatmydata (LD_PRELOAD=libeatmydata.so)"),
                List.of("libeatmydata.so", "libother.so"));
        StorageFacts f = new StorageFacts("/data", "/data", ROOT, VDA, null, List.of(VDA), null, env);
        assertThat(Judge.staticFindings(f)).extracting(Finding::toString).containsExactly(
                "SYNC_INTERPOSER: eatmydata is loaded in this process (LD_PRELOAD=libeatmydata.so): fsync, fdatasync "
                        + "and O_DSYNC return without syncing",
                "PRELOADED_LIBRARY: LD_PRELOAD names libother.so, which flushcheck does not know; if it intercepts "
                        + "syncs, the device counters will show it",
                "VIRTUAL_DISK: flushes end at vda, a virtual disk (virtio_blk): whether the host persists them is "
                        + "beyond this guest's edge; compare with a probe on the host");
    }

    @Test
    void fmtKeepsThreeSignificantDigits() {
        assertThat(Numbers.micros(208.4)).isEqualTo("208");
        assertThat(Numbers.micros(34.04)).isEqualTo("34.0");
        assertThat(Numbers.micros(3.6)).isEqualTo("3.60");
        assertThat(Numbers.micros(5968)).isEqualTo("5968");
    }

    @Test
    void thresholdsAreValidated() {
        assertThatThrownBy(() -> new Thresholds(0, 20)).hasMessage(
                "minimum flushes per sync 0.0 is out of range: use a number above 0 and at most 10 (default 0.5)");
        assertThatThrownBy(() -> new Thresholds(Double.NaN, 20)).hasMessage(
                "minimum flushes per sync NaN is out of range: use a number above 0 and at most 10 (default 0.5)");
        assertThatThrownBy(() -> new Thresholds(0.5, -1)).hasMessage(
                "suspicious sync time -1.0 µs is out of range: use a number from 0 to 1000000 (default 20)");
    }
}

package io.flushcheck.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.probe.DeviceDelta;
import io.flushcheck.probe.FlushBrackets;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.DeviceStat;
import io.flushcheck.storage.Environment;
import io.flushcheck.storage.MountInfo;
import io.flushcheck.storage.StorageFacts;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The brackets' rule, on figures made by hand: every sync saw a flush get all the way down while it ran, against
 * idle brackets that rarely did, shows the syncs' flushes however many other work added; syncs that met
 * none did not reach the disk; and the brackets speak only for a known chain.
 */
class BracketRuleTests {

    private static final MountInfo ROOT = MountInfo.parse("27 1 254:0 / / rw - ext4 /dev/vda rw");
    private static final Environment PLAIN = new Environment(null, null, List.of(), List.of());
    private static final BlockDevice VDA = new BlockDevice("vda", BlockDevice.Kind.DISK, "write back", true, "virtio_blk",
            null, null, null, List.of());
    private static final StorageFacts ON_VDA = new StorageFacts("/data", "/data", ROOT, VDA, null, List.of(VDA), null, PLAIN);
    /** A root counted on every disk (a container's overlay): no chain of its own. */
    private static final StorageFacts EVERY_DISK = new StorageFacts("/data", "/data", ROOT, null, null, List.of(VDA), null,
            PLAIN);

    /**
     * 1000 syncs in 250 ms that counted {@code flushes} on vda, while as long in idle windows counted
     * {@code idleFlushes}: a saturated disk, whose counts alone cannot say whose the flushes are.
     */
    private static SyncCost saturated(FlushBrackets.Tally brackets) {
        long[] nanos = new long[1000];
        Arrays.fill(nanos, 250_000);
        DeviceDelta vda = new DeviceDelta("vda", true, new DeviceStat(0, 8000, 7000), new DeviceStat(0, 0, 7000));
        return new SyncCost(SyncMode.OVERWRITE_FDATASYNC, 4096, 1000, LatencyDistribution.ofNanos(nanos), 250_000_000L,
                250_000_000L, List.of(vda), List.of(), null, null, null, brackets);
    }

    private static Verdict verdict(StorageFacts facts, SyncCost c) {
        return Judge.judge(facts, List.of(c), Thresholds.DEFAULT, List.of()).verdict();
    }

    /**
     * A probe that looks after every stretch must not pass a liar more often than one look at the planned rounds
     * would: 15 syncs that all met a flush against 20 idle brackets that met none decide REAL_FLUSH for a probe
     * that stops there, but not as one look of 64 planned; 24 do. Misses end a probe only once the planned rounds
     * could not have made them too few: 4 of 64 planned, not 3.
     */
    @Test
    void anEarlyStopNeedsTheRuleToHoldAtEveryLookOfThePlan() {
        FlushBrackets.Tally fifteen = FlushBrackets.Tally.of(15, new int[] {15}, 20, new int[] {0});
        assertThat(BracketRule.decidingDepth(fifteen)).isPositive();
        assertThat(BracketRule.decidedEarly(ON_VDA, saturated(fifteen), 64)).isFalse();
        assertThat(BracketRule.decidedEarly(ON_VDA, saturated(FlushBrackets.Tally.of(24, new int[] {24}, 20, new int[] {0})), 64))
                .isTrue();
        assertThat(BracketRule.decidedEarly(ON_VDA, saturated(FlushBrackets.Tally.of(20, new int[] {17}, 20, new int[] {0})), 64))
                .isFalse();
        SyncCost fourMissed = saturated(FlushBrackets.Tally.of(20, new int[] {16}, 20, new int[] {0}));
        assertThat(BracketRule.decidedEarly(ON_VDA, fourMissed, 64)).isTrue();
        assertThat(verdict(ON_VDA, fourMissed)).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(BracketRule.decidedEarly(EVERY_DISK, saturated(FlushBrackets.Tally.of(24, new int[] {24}, 20, new int[] {0})), 64))
                .as("no chain of its own: the counts decide, over every planned round").isFalse();
    }

    @Test
    void withoutBracketsASaturatedDiskIsUndecided() {
        assertThat(verdict(ON_VDA, saturated(null))).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void everySyncMeetingAFlushWhileIdleBracketsOftenMissShowsTheSyncsFlushes() {
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {1000, 0}, 900, new int[] {800, 0}));
        List<Finding> f = Judge.costFindings(ON_VDA, List.of(c), Thresholds.DEFAULT);
        assertThat(verdict(ON_VDA, c)).as("%s", f).isEqualTo(Verdict.REAL_FLUSH);
        assertThat(f.get(0).code()).isEqualTo(FindingCode.FLUSHES_REACHED);
        assertThat(f.get(0).message()).contains("every one of 1000 syncs saw a flush complete at every level while it ran, against 800 of 900");
        assertThat(f.get(0).evidence()).containsEntry("brackets.overwrite-fdatasync",
                "of 1000 syncs, 1000, 0, 0 and 0 met at least 1, 2, 3 and 4 flushes; of 900 idle brackets, 800, 0, 0 and 0");
    }

    @Test
    void idleBracketsThatAlmostAlwaysMeetAFlushProveNothing() {
        // Other work alone met 899 of 900: 1000 syncs meeting one each is what chance gives too.
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {1000, 0}, 900, new int[] {899, 0}));
        assertThat(verdict(ON_VDA, c)).isEqualTo(Verdict.UNKNOWN);
        assertThat(BracketRule.bracketDecision(c.brackets())).isZero();
    }

    /**
     * Measured: append-fsync on a healthy virtio disk while one fio job appended and fdatasynced beside it, sharing
     * its journal commits, so that the counts could not tell (2149 flushes counted in 1024 syncs, about 2229 other
     * work's by the idle windows): after 1344 syncs, every one had met a flush, and 1198 of 1212 idle brackets had.
     * Not decided yet, but more rounds can decide it: at the same shares four times the rounds more show the syncs'
     * flushes. Syncs that reach no disk meet a flush as the idle brackets do, and miss as they do: those are never
     * measured further for the brackets, nor passed; nor are syncs where every idle bracket met a flush, since no
     * count of rounds shows anything there.
     */
    @Test
    void whereIdleBracketsRarelyMissMoreRoundsCanStillShowTheSyncsFlushes() {
        SyncCost measured = saturated(FlushBrackets.Tally.of(1344, new int[] {1344, 380, 183, 6}, 1212,
                new int[] {1198, 1001, 214, 25}));
        assertThat(verdict(ON_VDA, measured)).isEqualTo(Verdict.UNKNOWN);
        assertThat(BracketRule.moreRoundsCanShow(ON_VDA, measured)).isTrue();
        assertThat(Judge.bracketsCanStillShow(ON_VDA, List.of(measured), Thresholds.DEFAULT))
                .containsExactly(SyncMode.OVERWRITE_FDATASYNC);

        SyncCost more = saturated(FlushBrackets.Tally.of(5440, new int[] {5440, 1540, 740, 24}, 4906,
                new int[] {4849, 4052, 866, 101}));
        assertThat(verdict(ON_VDA, more)).isEqualTo(Verdict.REAL_FLUSH);

        SyncCost missing = saturated(FlushBrackets.Tally.of(1344, new int[] {1328, 380, 183, 6}, 1212,
                new int[] {1198, 1001, 214, 25}));
        assertThat(BracketRule.moreRoundsCanShow(ON_VDA, missing)).isFalse();
        assertThat(Judge.bracketsCanStillShow(ON_VDA, List.of(missing), Thresholds.DEFAULT)).isEmpty();
        assertThat(verdict(ON_VDA, missing)).isNotEqualTo(Verdict.REAL_FLUSH);

        SyncCost everyIdleMet = saturated(FlushBrackets.Tally.of(1344, new int[] {1344}, 1212, new int[] {1212}));
        assertThat(BracketRule.moreRoundsCanShow(ON_VDA, everyIdleMet)).isFalse();
        assertThat(Judge.bracketsCanStillShow(ON_VDA, List.of(everyIdleMet), Thresholds.DEFAULT)).isEmpty();
        assertThat(BracketRule.moreRoundsCanShow(EVERY_DISK, measured)).as("no chain of its own: the counts decide").isFalse();
    }

    /**
     * A mode measured again ends once its brackets added to the earlier measurements' decide it, the chances shared
     * by every round planned: 15 syncs that met a flush earlier and 9 now are the 24 that decide one look of 64.
     */
    @Test
    void aMeasurementAgainStopsOnTheBracketsOfEveryMeasurementTogether() {
        SyncCost earlier = saturated(FlushBrackets.Tally.of(15, new int[] {15}, 10, new int[] {0}));
        SyncCost now = saturated(FlushBrackets.Tally.of(9, new int[] {9}, 10, new int[] {0}));
        assertThat(Judge.stopWhenDecided(ON_VDA, Map.of(SyncMode.OVERWRITE_FDATASYNC, earlier), 64).decided(now, 48))
                .isTrue();
        assertThat(Judge.stopWhenDecided(ON_VDA, Map.of(), 64).decided(now, 48)).as("this measurement alone").isFalse();
        assertThat(Judge.stopWhenDecided(ON_VDA, Map.of(SyncMode.OVERWRITE_FDATASYNC, earlier), 100_000)
                .decided(now, 48)).as("a chance shared by more planned rounds").isFalse();
    }

    @Test
    void whereIdleBracketsAlmostAlwaysMeetOneFlushSyncsMeetingTwoFarMoreOftenShowTheirOwn() {
        // A flush in flight nearly all the time: 899 of 900 idle brackets meet one, 450 meet two; a sync
        // waits for the one in flight and then for its own, so 950 of 1000 met two.
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {1000, 950}, 900, new int[] {899, 450}));
        List<Finding> f = Judge.costFindings(ON_VDA, List.of(c), Thresholds.DEFAULT);
        assertThat(verdict(ON_VDA, c)).as("%s", f).isEqualTo(Verdict.REAL_FLUSH);
        assertThat(f.get(0).message()).contains("every one of 1000 syncs saw a flush complete at every level while it ran"
                + " and 950 saw 2 or more, against 899 and 450 of 900 idle brackets");
    }

    @Test
    void syncsMeetingTwoFlushesNoMoreOftenThanOtherWorkExplainsProveNothing() {
        // 560 of 1000 against 450 of 900 idle brackets: within what other work running a quarter faster
        // while the syncs run would give a daemon that swallows them.
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {1000, 560}, 900, new int[] {899, 450}));
        assertThat(BracketRule.bracketDecision(c.brackets())).isZero();
        assertThat(verdict(ON_VDA, c)).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void whereMostBracketsMeetTwoTheSyncsShowTheirsInThreeOrMore() {
        // The counts from a healthy virtio disk under four fio jobs: a journal commit takes two flushes, so
        // idle brackets meeting one mostly meet two; the syncs wait for others' commits and then their own.
        SyncCost c = saturated(FlushBrackets.Tally.of(320, new int[] {320, 318, 300, 220}, 230, new int[] {220, 215, 100, 80}));
        assertThat(BracketRule.decidingDepth(c.brackets())).isEqualTo(3);
        assertThat(verdict(ON_VDA, c)).isEqualTo(Verdict.REAL_FLUSH);
        assertThat(Judge.costFindings(ON_VDA, List.of(c), Thresholds.DEFAULT).get(0).message())
                .contains("and 300 saw 3 or more, against 220 and 100 of 230 idle brackets");
    }

    @Test
    void aSyncWithoutAnyFlushKeepsTwosFromDeciding() {
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {999, 950}, 900, new int[] {899, 450}));
        assertThat(BracketRule.bracketDecision(c.brackets())).isZero();
    }

    @Test
    void syncsThatMetNoFlushDidNotReachTheDisk() {
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {900, 0}, 900, new int[] {810, 0}));
        List<Finding> f = Judge.costFindings(ON_VDA, List.of(c), Thresholds.DEFAULT);
        assertThat(verdict(ON_VDA, c)).as("%s", f).isEqualTo(Verdict.NO_REAL_FLUSH);
        assertThat(f).extracting(Finding::code).contains(FindingCode.SYNCS_WITHOUT_FLUSH);
        assertThat(f.stream().filter(x -> x.code() == FindingCode.SYNCS_WITHOUT_FLUSH).findFirst().orElseThrow().message())
                .contains("100 of 1000 syncs returned with no flush completed");
    }

    @Test
    void whereTheCountsShowTheFlushesMissingTheirFindingStands() {
        // 100 syncs, 3 flushes counted, none in the idle windows: the counts decide, as they always have.
        long[] nanos = new long[100];
        Arrays.fill(nanos, 20_000);
        DeviceDelta vda = new DeviceDelta("vda", true, new DeviceStat(0, 800, 3), new DeviceStat(0, 0, 0));
        SyncCost c = new SyncCost(SyncMode.OVERWRITE_FDATASYNC, 4096, 100, LatencyDistribution.ofNanos(nanos),
                2_000_000L, 2_000_000L, List.of(vda), List.of(), null, null, null, FlushBrackets.Tally.of(100, new int[] {3, 0}, 20, new int[] {0, 0}));
        List<Finding> f = Judge.costFindings(ON_VDA, List.of(c), Thresholds.DEFAULT);
        assertThat(f).extracting(Finding::code).contains(FindingCode.FLUSHES_MISSING).doesNotContain(FindingCode.SYNCS_WITHOUT_FLUSH);
        assertThat(verdict(ON_VDA, c)).isEqualTo(Verdict.NO_REAL_FLUSH);
        // The brackets stand in its evidence too: a reader (or a test) can weigh the syncs that met no flush
        // against the idle brackets, which other work's flushes cannot inflate as they inflate the counts.
        assertThat(f.stream().filter(x -> x.code() == FindingCode.FLUSHES_MISSING).findFirst().orElseThrow().evidence())
                .containsEntry("syncsWithoutFlush", "97").containsEntry("controls", "20").containsEntry("controlsMetFlush", "0");
    }

    @Test
    void aFewSyncsWithoutAFlushKeepTheCountsFromShowingTheModeReached() {
        // Counts alone would credit these syncs (140 flushes, 40 of them other work's), but two met none.
        long[] nanos = new long[100];
        Arrays.fill(nanos, 200_000);
        DeviceDelta vda = new DeviceDelta("vda", true, new DeviceStat(0, 800, 140), new DeviceStat(0, 0, 40));
        SyncCost counted = new SyncCost(SyncMode.OVERWRITE_FDATASYNC, 4096, 100, LatencyDistribution.ofNanos(nanos),
                400_000_000L, 400_000_000L, List.of(vda), List.of(), null, null, null, null);
        assertThat(verdict(ON_VDA, counted)).isEqualTo(Verdict.REAL_FLUSH);
        SyncCost twoMissed = new SyncCost(SyncMode.OVERWRITE_FDATASYNC, 4096, 100, LatencyDistribution.ofNanos(nanos),
                400_000_000L, 400_000_000L, List.of(vda), List.of(), null, null, null, FlushBrackets.Tally.of(100, new int[] {98, 0}, 100, new int[] {30, 0}));
        assertThat(verdict(ON_VDA, twoMissed)).isEqualTo(Verdict.UNKNOWN);
    }

    @Test
    void bracketsDoNotSpeakWhereFlushesAreCountedOnEveryDisk() {
        SyncCost c = saturated(FlushBrackets.Tally.of(1000, new int[] {1000, 0}, 900, new int[] {800, 0}));
        assertThat(verdict(EVERY_DISK, c)).isNotEqualTo(Verdict.REAL_FLUSH);
        assertThat(Judge.costFindings(EVERY_DISK, List.of(c), Thresholds.DEFAULT)).extracting(Finding::code)
                .doesNotContain(FindingCode.FLUSHES_REACHED);
    }
}

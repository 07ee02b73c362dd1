package io.flushcheck.verdict;

import io.flushcheck.probe.SyncCost;

/**
 * The counts' rule: whether a mode's syncs caused their flushes, once other work's flushes, estimated in the
 * idle windows between the rounds, are taken off; 0 where the device was too busy to tell.
 */
final class FlushCountRule {

    private FlushCountRule() {
    }

    /**
     * How far the estimate of other work may be off beyond its statistical deviation, as a share of it.
     * The idle windows sample other work while the probe does not sync, and that work does not run the
     * same while it does: under four fio jobs fdatasyncing on the disk below, a FUSE daemon that swallows
     * every sync saw 11 to 12% more flushes during its rounds than the windows predicted (3254 against
     * 2931, 4471 against 4011), enough to pass for its own had that not been allowed for.
     */
    static final double OTHER_WORK_BIAS = 0.25;

    /**
     * Whether a mode's syncs caused their flushes: 1 when its own flushes clear the threshold by more
     * than three deviations of the other-work estimate plus {@link #OTHER_WORK_BIAS} of it, -1 when they miss it by as much (or too few
     * were counted at all: other work only adds), 0 when the device was too busy to tell.
     */
    static int decision(SyncCost c, Thresholds t) {
        if (moreThanSyncsCause(c)) {
            // The idle windows missed some of the other work, so the estimate cannot be trusted to have taken
            // all of it off.
            return 0;
        }
        double caused = c.flushesCaused();
        double noise = 3 * c.backgroundDeviation() + OTHER_WORK_BIAS * Math.max(0, c.backgroundFlushes());
        double want = t.minFlushesPerSync() * c.rounds();
        if (caused - noise >= want) {
            return 1;
        }
        return caused + noise < want || c.flushesReached() < want ? -1 : 0;
    }

    /**
     * More flushes per sync than a sync can cause: fsync on ext4, xfs or btrfs sends at most a journal
     * commit's flush and the data's, plus a FUA write counted as one more on some drivers.
     */
    static final double MOST_FLUSHES_A_SYNC_EXPLAINS = 3;

    /** More flushes left per sync than syncs cause: {@link #MOST_FLUSHES_A_SYNC_EXPLAINS} per disk at the bottom. */
    static boolean moreThanSyncsCause(SyncCost c) {
        return c.flushesPerSync() > MOST_FLUSHES_A_SYNC_EXPLAINS * Math.max(1, BottomDevices.terminals(c));
    }
}

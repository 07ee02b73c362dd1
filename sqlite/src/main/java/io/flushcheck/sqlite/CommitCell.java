package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/**
 * One measured configuration.
 *
 * @param journalMode the journal mode asked for
 * @param synchronous the synchronous level asked for
 * @param fullfsync   {@code PRAGMA fullfsync} (and checkpoint_fullfsync) on
 * @param batch       rows per transaction
 * @param rows        rows inserted in the measured loop
 * @param commits     transactions committed in it
 * @param nanos       wall time of the loop (System.nanoTime)
 * @param flushes     flushes that reached the disk meanwhile (the fewest any level of the device chain
 *                    completed: {@link io.flushcheck.probe.DeviceDelta#flushesReached}), or -1 when not counted
 * @param kib         KiB that reached the disk meanwhile, by the same rule
 *                    ({@link io.flushcheck.probe.DeviceDelta#kibReached}), or -1 when not counted
 * @param truncated   true when the cell stopped at its time limit before inserting all its rows
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record CommitCell(JournalMode journalMode, Synchronous synchronous, boolean fullfsync, int batch, long rows,
                         long commits, long nanos, long flushes, long kib, boolean truncated) {

    public double seconds() {
        return nanos / 1e9;
    }

    public double rowsPerSecond() {
        return nanos <= 0 ? Double.NaN : rows / seconds();
    }

    public double commitsPerSecond() {
        return nanos <= 0 ? Double.NaN : commits / seconds();
    }

    /** Flushes that reached the disk per commit, NaN when flushes were not counted. */
    public double flushesPerCommit() {
        return flushes < 0 || commits == 0 ? Double.NaN : (double) flushes / commits;
    }

    /** KiB that reached the disk per commit, NaN when not counted. */
    public double kibPerCommit() {
        return kib < 0 || commits == 0 ? Double.NaN : (double) kib / commits;
    }

    /** {@code WAL/FULL/fullfsync=0/batch=1} as messages print it. */
    public String label() {
        return label(journalMode, synchronous, fullfsync, batch);
    }

    static String label(JournalMode j, Synchronous s, boolean fullfsync, int batch) {
        return j + "/" + s + "/fullfsync=" + (fullfsync ? 1 : 0) + "/batch=" + batch;
    }
}

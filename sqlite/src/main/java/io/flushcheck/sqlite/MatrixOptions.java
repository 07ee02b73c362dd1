package io.flushcheck.sqlite;

import io.flushcheck.probe.ProbePlan;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What the commit-rate matrix measures and how long it may take.
 *
 * @param journalModes    journal modes, in order (default DELETE, WAL)
 * @param synchronous     synchronous levels, in order (default OFF, NORMAL, FULL, EXTRA)
 * @param fullfsync       values of {@code PRAGMA fullfsync} (and checkpoint_fullfsync), default both
 * @param batches         rows per transaction (default 1 and 1000)
 * @param rows            rows each cell inserts at most (default 2000)
 * @param minCommits      commits each cell runs at least, whatever {@code rows} says, so that batched cells
 *                        still count flushes over several commits (default 10)
 * @param rowBytes        payload bytes per row (default 100)
 * @param maxCellSeconds  a cell stops after this many seconds, with what it has (default 5)
 * @param maxTotalSeconds the cells that would start after this many seconds are skipped and listed (default 120)
 * @param checkPlan       the probe behind the directory's verdict; null skips the check: the verdict is
 *                        UNKNOWN with a NOT_PROBED finding and a note (the storage is still inspected, without
 *                        writing, so that flushes are counted)
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record MatrixOptions(List<JournalMode> journalModes, List<Synchronous> synchronous, List<Boolean> fullfsync,
                            List<Integer> batches, int rows, int minCommits, int rowBytes, double maxCellSeconds,
                            double maxTotalSeconds, ProbePlan checkPlan) {

    public static final int MAX_ROWS = 10_000_000;
    public static final int MAX_BATCH = 1_000_000;

    public MatrixOptions {
        journalModes = List.copyOf(journalModes);
        synchronous = List.copyOf(synchronous);
        fullfsync = List.copyOf(fullfsync);
        batches = List.copyOf(batches);
        if (journalModes.isEmpty() || synchronous.isEmpty() || fullfsync.isEmpty() || batches.isEmpty()) {
            throw new IllegalArgumentException("the matrix needs at least one journal mode, synchronous level,"
                    + " fullfsync value and batch size");
        }
        for (int b : batches) {
            if (b < 1 || b > MAX_BATCH) {
                throw new IllegalArgumentException("batch " + b + " is out of range: use 1 to " + MAX_BATCH + " rows per transaction");
            }
        }
        if (rows < 1 || rows > MAX_ROWS) {
            throw new IllegalArgumentException("rows " + rows + " is out of range: use 1 to " + MAX_ROWS);
        }
        if (minCommits < 1 || minCommits > 100_000) {
            throw new IllegalArgumentException("min commits " + minCommits + " is out of range: use 1 to 100000");
        }
        if (rowBytes < 0 || rowBytes > 1 << 20) {
            throw new IllegalArgumentException("row bytes " + rowBytes + " is out of range: use 0 to 1048576");
        }
        if (!(maxCellSeconds > 0) || !(maxTotalSeconds > 0)) {
            throw new IllegalArgumentException("time limits must be positive seconds");
        }
    }

    /** DELETE and WAL × OFF..EXTRA × fullfsync 0/1 × batches 1 and 1000, 2000 rows a cell, 120 s at most. */
    public static MatrixOptions defaults() {
        return new MatrixOptions(List.of(JournalMode.DELETE, JournalMode.WAL), List.of(Synchronous.values()),
                List.of(false, true), List.of(1, 1000), 2000, 10, 100, 5, 120, ProbePlan.verification());
    }

    public MatrixOptions withJournalModes(List<JournalMode> v) {
        return new MatrixOptions(v, synchronous, fullfsync, batches, rows, minCommits, rowBytes, maxCellSeconds, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withSynchronous(List<Synchronous> v) {
        return new MatrixOptions(journalModes, v, fullfsync, batches, rows, minCommits, rowBytes, maxCellSeconds, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withFullfsync(List<Boolean> v) {
        return new MatrixOptions(journalModes, synchronous, v, batches, rows, minCommits, rowBytes, maxCellSeconds, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withBatches(List<Integer> v) {
        return new MatrixOptions(journalModes, synchronous, fullfsync, v, rows, minCommits, rowBytes, maxCellSeconds, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withRows(int v) {
        return new MatrixOptions(journalModes, synchronous, fullfsync, batches, v, minCommits, rowBytes, maxCellSeconds, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withMinCommits(int v) {
        return new MatrixOptions(journalModes, synchronous, fullfsync, batches, rows, v, rowBytes, maxCellSeconds, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withMaxCellSeconds(double v) {
        return new MatrixOptions(journalModes, synchronous, fullfsync, batches, rows, minCommits, rowBytes, v, maxTotalSeconds, checkPlan);
    }

    public MatrixOptions withMaxTotalSeconds(double v) {
        return new MatrixOptions(journalModes, synchronous, fullfsync, batches, rows, minCommits, rowBytes, maxCellSeconds, v, checkPlan);
    }

    public MatrixOptions withCheckPlan(ProbePlan v) {
        return new MatrixOptions(journalModes, synchronous, fullfsync, batches, rows, minCommits, rowBytes, maxCellSeconds, maxTotalSeconds, v);
    }

    /** Rows a cell with this batch inserts: {@code rows}, raised to {@code minCommits} full batches. */
    public long rowsFor(int batch) {
        return Math.max(rows, (long) batch * minCommits);
    }

    /** Number of cells. */
    public int cellCount() {
        return journalModes.size() * synchronous.size() * fullfsync.size() * batches.size();
    }
}

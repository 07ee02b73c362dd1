package io.flushcheck.cli.probe;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.LatencyDistribution;
import io.flushcheck.probe.ProbePlan;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.ResultData;
import io.flushcheck.verdict.Verdict;
import java.util.List;
import java.util.Locale;

/**
 * {@code --preset etcd}: etcd's disk check as its documentation gives it, "fio --rw=write --ioengine=sync
 * --fdatasync=1 --size=22m --bs=2300", 2,300-byte writes each followed by fdatasync over 22 MiB, judged by
 * the 99th percentile of fdatasync alone against 10 ms ("the 99th percentile of fdatasync ... should be
 * less than 10ms", etcd's hardware recommendations and the fio blog post it links). The file is laid out as
 * fio lays out that job's ({@link ProbePlan#fioWrite}): preallocated to the whole 22 MiB with fallocate(2), then
 * written from its start in the 10,029 whole blocks that fit.
 */
final class EtcdPreset {

    static final String NAME = "etcd";
    static final int BLOCK_SIZE = 2300;
    static final long TOTAL_BYTES = 22L << 20;
    /** fio writes whole blocks only: 22 MiB / 2,300 bytes, rounded down. */
    static final int ROUNDS = (int) (TOTAL_BYTES / BLOCK_SIZE);
    static final double LIMIT_MICROS = 10_000;

    private EtcdPreset() {
    }

    static ProbePlan plan(int slowRounds) {
        return ProbePlan.fioWrite(SyncMode.APPEND_FDATASYNC, TOTAL_BYTES, BLOCK_SIZE, slowRounds);
    }

    /** The fdatasync step alone of the preset's mode, or null when nothing was measured. */
    static LatencyDistribution syncs(CheckResult r) {
        SyncCost c = cost(r);
        return c == null ? null : c.syncLatencies();
    }

    /** The preset's mode's cost, where its write and fdatasync were timed apart; null when nothing was measured. */
    private static SyncCost cost(CheckResult r) {
        for (SyncCost c : r.costs()) {
            if (c.mode() == SyncMode.APPEND_FDATASYNC && c.hasSplitLatencies()) {
                return c;
            }
        }
        return null;
    }

    /**
     * {@code etcd: REAL_FLUSH, fdatasync p50 1.21 ms, p99 4.80 ms over 9949 of 10029 writes of 2300 bytes (the 80
     * right after the probe's idle windows left out) ...: PASS ...}.
     */
    static String line(CheckResult r) {
        LatencyDistribution s = syncs(r);
        if (s == null) {
            return "etcd: " + r.verdict() + ", fdatasync not measured: "
                    + (r.costs().isEmpty() ? "the storage facts decided (--always-probe measures anyway)" : "no append-fdatasync round ran");
        }
        double p99 = s.percentileMicros(99);
        String gate = p99 < LIMIT_MICROS ? "PASS (p99 under 10 ms)" : "FAIL (p99 at or over 10 ms)";
        String caveat = r.verdict() == Verdict.REAL_FLUSH ? ""
                : r.verdict() == Verdict.NO_REAL_FLUSH ? "; but these syncs reach no device that keeps them"
                : "; whether these syncs reach a device is unknown";
        SyncCost c = cost(r);
        String over = c.roundsLeftOut() == 0 ? s.count() + " writes"
                : String.format(Locale.ROOT, "%d of %d writes", s.count(), c.rounds());
        String leftOut = c.roundsLeftOut() == 0 ? ""
                : String.format(Locale.ROOT, " (the %d right after the probe's idle windows left out)", c.roundsLeftOut());
        return String.format(Locale.ROOT,
                "etcd: %s, fdatasync p50 %.2f ms, p99 %.2f ms over %s of %d bytes%s in a file laid out as fio's: %s%s",
                r.verdict(), s.percentileMicros(50) / 1000, p99 / 1000, over, BLOCK_SIZE, leftOut, gate, caveat);
    }

    /** The preset's figures for the JSON: {@code {"name","syncP50Micros","syncP99Micros","limitMicros","pass"}}. */
    static ResultData.Preset data(CheckResult r) {
        LatencyDistribution s = syncs(r);
        return new ResultData.Preset(NAME, s == null ? Double.NaN : s.percentileMicros(50),
                s == null ? Double.NaN : s.percentileMicros(99), LIMIT_MICROS,
                s == null ? null : s.percentileMicros(99) < LIMIT_MICROS);
    }
}

package io.flushcheck.report;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SlowRound;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.verdict.Finding;
import io.flushcheck.verdict.Judge;
import java.util.List;
import java.util.Locale;

/** The human-readable report: facts, verdict with reasons, and seed 002's summary lines per mode. */
public final class TextReport {

    private TextReport() {
    }

    public static String of(CheckResult r, boolean histograms) {
        StringBuilder sb = new StringBuilder();
        // Paths and messages are data: escaped (Escape), so that a name holding a newline or an escape
        // sequence cannot forge a line of the report or drive the terminal.
        sb.append("== ").append(Escape.of(r.path())).append('\n');
        StorageFacts f = r.facts();
        if (f != null) {
            sb.append("   ").append(Escape.of(f.resolved())).append(" is on ").append(Escape.of(f.fsType())).append(" from ")
                    .append(Escape.of(f.mount().source())).append(" at ").append(Escape.of(f.mount().mountPoint()))
                    .append(" (mount ").append(f.mount().mountId()).append(")\n");
            if (f.device() != null) {
                sb.append("   device: ").append(f.device().describeChain());
                for (BlockDevice t : f.device().terminals()) {
                    sb.append("; ").append(t.name()).append(": ")
                            .append(t.writeCache() == null ? "cache unknown" : t.writeCache())
                            .append(t.driver() != null ? ", driver " + t.driver() : "")
                            .append(Boolean.TRUE.equals(t.rotational()) ? ", rotational" : "");
                }
                sb.append('\n');
            } else if (f.flushPointsNote() != null) {
                sb.append("   device: ").append(Escape.of(f.flushPointsNote())).append('\n');
            }
            var env = f.environment();
            if (env.container() != null || env.hypervisor() != null) {
                sb.append("   environment:")
                        .append(env.container() != null ? " container " + env.container() : "")
                        .append(env.hypervisor() != null ? " hypervisor " + env.hypervisor() : "").append('\n');
            }
        }
        sb.append("verdict: ").append(r.verdict()).append(" (").append(r.elapsedMillis()).append(" ms)\n");
        for (Finding finding : r.judgement().findings()) {
            sb.append("  - ").append(finding.code()).append(": ").append(Escape.of(finding.message())).append('\n');
        }
        for (SyncCost c : r.costs()) {
            appendCost(sb, c, histograms);
        }
        return sb.toString();
    }

    /** One line per mode: {@code flushcheck: append-fsync 4 KiB: p50 300 us, p99 615 us, max 2322 us, 1.00 flushes/sync, 3014 rounds/s}. */
    public static String costLine(SyncCost c) {
        return String.format(Locale.ROOT, "flushcheck: %s %s: p50 %s us, p99 %s us, max %s us, %s flushes/sync, %.0f rounds/s%n",
                c.mode().id(), size(c.blockSize()), Judge.fmt(c.p50Micros()), Judge.fmt(c.p99Micros()), Judge.fmt(c.maxMicros()),
                Double.isNaN(c.flushesPerSync()) ? "n/a" : String.format(Locale.ROOT, "%.2f", c.flushesPerSync()),
                c.roundsPerSecond());
    }

    /** Seed 002's two or three summary lines for one mode. */
    public static void appendCost(StringBuilder sb, SyncCost c, boolean histogram) {
        // flush-only writes nothing in its rounds: it syncs a clean file of one block.
        String what = c.mode() == SyncMode.FLUSH_ONLY ? "fdatasync of a clean " + size(c.blockSize()) + " file"
                : size(c.blockSize());
        sb.append(String.format(Locale.ROOT, "%s: %d rounds of %s, %.0f rounds per second%n", c.mode().id(), c.rounds(),
                what, c.roundsPerSecond()));
        sb.append(String.format(Locale.ROOT, "  min %s us, p50 %s us, p90 %s us, p99 %s us, max %s us%n",
                Judge.fmt(c.minMicros()), Judge.fmt(c.p50Micros()), Judge.fmt(c.p90Micros()), Judge.fmt(c.p99Micros()),
                Judge.fmt(c.maxMicros())));
        if (c.hasSplitLatencies()) {
            sb.append(String.format(Locale.ROOT, "  write alone p50 %s us, p99 %s us; %s alone p50 %s us, p99 %s us%n",
                    Judge.fmt(c.writeLatencies().percentileMicros(50)), Judge.fmt(c.writeLatencies().percentileMicros(99)),
                    syncCall(c.mode()), Judge.fmt(c.syncLatencies().percentileMicros(50)),
                    Judge.fmt(c.syncLatencies().percentileMicros(99))));
        }
        if (c.hasDeviceCounters()) {
            sb.append(String.format(Locale.ROOT, "  device during the loop: %d flushes, %d KiB written", c.flushesReached(),
                    c.kibReached()));
            if (c.devices().size() > 1) {
                sb.append(" (");
                for (int i = 0; i < c.devices().size(); i++) {
                    var d = c.devices().get(i);
                    sb.append(i > 0 ? ", " : "").append(d.device()).append(": ").append(d.delta().flushes())
                            .append(" flushes, ").append(d.delta().kibWritten()).append(" KiB");
                }
                sb.append(')');
            }
            long background = Math.round(c.backgroundFlushes());
            if (background > 0) {
                sb.append(String.format(Locale.ROOT, "%n  other work on the device: about %d of those flushes (its rate in %d ms"
                        + " of idle windows); the syncs caused %.0f", background, c.idleNanos() / 1_000_000, c.flushesCaused()));
            }
            sb.append('\n');
        } else {
            sb.append("  device counters: not visible here\n");
        }
        if (histogram) {
            long max = c.log2Buckets().stream().mapToLong(io.flushcheck.probe.LatencyDistribution.Bucket::count).max().orElse(1);
            int scale = (int) Math.max(1, (max + 59) / 60);
            for (var b : c.log2Buckets()) {
                sb.append(String.format(Locale.ROOT, "  %8d - %-8d us %6d  %s%n", b.lowMicros(), b.highMicros(),
                        b.count(), "#".repeat((int) ((b.count() + scale - 1) / scale))));
            }
            sb.append(String.format(Locale.ROOT, "  (each # is up to %d rounds)%n", scale));
        }
        if (!c.slowest().isEmpty() && histogram) {
            sb.append("  median round: ").append(round(c.medianRound())).append('\n');
            for (SlowRound s : c.slowest()) {
                sb.append("  slow round:   ").append(round(s)).append('\n');
            }
        }
    }

    /** The call a mode's sync step makes, as fio and the man pages name it. */
    public static String syncCall(SyncMode mode) {
        return switch (mode) {
            case APPEND_FSYNC -> "fsync";
            case APPEND_FDATASYNC, OVERWRITE_FDATASYNC, FLUSH_ONLY -> "fdatasync";
            case JAVA_FORCE -> "force";
            case FULL_FSYNC -> "F_FULLFSYNC";
            case BARRIER_FSYNC -> "F_BARRIERFSYNC";
            case DSYNC -> "O_DSYNC write";
            case NO_SYNC -> "write";
        };
    }

    private static String round(SlowRound s) {
        String t = Judge.fmt(s.micros()) + " us (round " + s.index() + ")";
        return s.flushes() < 0 ? t : t + ", terminal devices during it: " + s.kibWritten() + " KiB written, " + s.flushes()
                + " flushes";
    }

    static String size(int bytes) {
        if (bytes % (1 << 20) == 0) {
            return bytes / (1 << 20) + " MiB";
        }
        if (bytes % 1024 == 0) {
            return bytes / 1024 + " KiB";
        }
        return bytes + " bytes";
    }

    /** A compact one-line cost table row set for many results (used by comparisons). */
    public static String costTable(List<SyncCost> costs) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-20s %8s %9s %9s %9s %10s %8s %9s%n", "mode",
                "block", "p50 us", "p99 us", "max us", "rounds/s", "flushes", "KiB"));
        for (SyncCost c : costs) {
            sb.append(String.format(Locale.ROOT, "%-20s %8s %9s %9s %9s %10.0f %8s %9s%n", c.mode().id(), size(c.blockSize()),
                    Judge.fmt(c.p50Micros()), Judge.fmt(c.p99Micros()), Judge.fmt(c.maxMicros()), c.roundsPerSecond(),
                    c.flushesReached() < 0 ? "-" : String.valueOf(c.flushesReached()),
                    c.kibReached() < 0 ? "-" : String.valueOf(c.kibReached())));
        }
        return sb.toString();
    }
}

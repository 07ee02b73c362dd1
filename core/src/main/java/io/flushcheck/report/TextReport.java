package io.flushcheck.report;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SlowRound;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.probe.SyncMode;
import io.flushcheck.storage.BlockDevice;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.text.Escape;
import io.flushcheck.text.Numbers;
import io.flushcheck.verdict.Finding;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/** The human-readable report: facts, verdict with reasons, and two or three summary lines per mode. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TextReport {

    private TextReport() {
    }

    public static String of(CheckResult r, boolean histograms) {
        return of(r, histograms, null);
    }

    /**
     * As {@link #of(CheckResult, boolean)}; where {@code measuredFor} names the path whose probe {@code r}
     * was judged with (another directory on the same mount, reported above it), one line points there
     * instead of printing the same costs again.
     */
    public static String of(CheckResult r, boolean histograms, String measuredFor) {
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
                sb.append("   device: ").append(Escape.of(f.deviceDescription()));
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
        if (measuredFor != null && !r.costs().isEmpty()) {
            sb.append("costs: those of ").append(Escape.of(measuredFor)).append(" above (the same mount, one probe)\n");
            return sb.toString();
        }
        for (SyncCost c : r.costs()) {
            appendCost(sb, c, histograms);
        }
        if (r.costs().size() > 1) {
            sb.append(costTable(r.costs()));
        }
        return sb.toString();
    }

    /** One line per mode: {@code flushcheck: append-fsync 4 KiB: p50 300 us, p99 615 us, max 2322 us, 1.00 flushes/sync, 3014 rounds/s}. */
    public static String costLine(SyncCost c) {
        return String.format(Locale.ROOT, "flushcheck: %s %s: p50 %s us, p99 %s us, max %s us, %s flushes/sync, %.0f rounds/s%n",
                c.mode().id(), size(c.blockSize()), Numbers.micros(c.p50Micros()), Numbers.micros(c.p99Micros()), Numbers.micros(c.maxMicros()),
                Double.isNaN(c.flushesPerSync()) ? "n/a" : Numbers.perEvent(c.flushesPerSync()),
                c.roundsPerSecond());
    }

    /**
     * What a mode's latencies hold when rounds were left out of them, in the words every report uses (the text's
     * line, the HTML page's): {@code latencies of 9800 rounds: the 200 right after idle windows are left out (...)}.
     */
    public static String latenciesLeftOut(long latencyRounds, long leftOut) {
        return String.format(Locale.ROOT, "latencies of %d rounds: the %d right after idle windows are left out"
                + " (a sync after a pause is slower than in a loop that never pauses)", latencyRounds, leftOut);
    }

    /** The two or three summary lines of one mode: rounds and rate, latency percentiles, what the device saw. */
    public static void appendCost(StringBuilder sb, SyncCost c, boolean histogram) {
        // flush-only writes nothing in its rounds: it syncs a clean file of one block.
        String what = c.mode() == SyncMode.FLUSH_ONLY ? "fdatasync of a clean " + size(c.blockSize()) + " file"
                : size(c.blockSize());
        sb.append(String.format(Locale.ROOT, "%s: %d rounds of %s, %.0f rounds per second%n", c.mode().id(), c.rounds(),
                what, c.roundsPerSecond()));
        sb.append(String.format(Locale.ROOT, "  min %s us, p50 %s us, p90 %s us, p99 %s us, max %s us%n",
                Numbers.micros(c.minMicros()), Numbers.micros(c.p50Micros()), Numbers.micros(c.p90Micros()), Numbers.micros(c.p99Micros()),
                Numbers.micros(c.maxMicros())));
        if (c.roundsLeftOut() > 0) {
            sb.append("  ").append(latenciesLeftOut(c.latencyRounds(), c.roundsLeftOut())).append(System.lineSeparator());
        }
        if (c.hasSplitLatencies()) {
            sb.append(String.format(Locale.ROOT, "  write alone p50 %s us, p99 %s us; %s alone p50 %s us, p99 %s us%n",
                    Numbers.micros(c.writeLatencies().percentileMicros(50)), Numbers.micros(c.writeLatencies().percentileMicros(99)),
                    syncCall(c.mode()), Numbers.micros(c.syncLatencies().percentileMicros(50)),
                    Numbers.micros(c.syncLatencies().percentileMicros(99))));
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
        String t = Numbers.micros(s.micros()) + " us (round " + s.index() + ")";
        return s.flushes() < 0 ? t : t + ", terminal devices during it: " + s.kibWritten() + " KiB written, " + s.flushes()
                + " flushes";
    }

    static String size(int bytes) {
        return Numbers.size(bytes);
    }

    /**
     * All modes of one path side by side, as pg_test_fsync compares its methods: median and p99 latency,
     * rounds per second, and what reached the device per sync ({@code -} where no counters are visible).
     */
    public static String costTable(List<SyncCost> costs) {
        TextTable t = new TextTable().text("mode").figure("p50 us").figure("p99 us").figure("rounds/s")
                .figure("flushes/sync").figure("KiB/sync");
        for (SyncCost c : costs) {
            t.row(c.mode().id(), Numbers.micros(c.p50Micros()), Numbers.micros(c.p99Micros()),
                    Numbers.rate(c.roundsPerSecond()), Numbers.perEvent(c.flushesPerSync()),
                    c.kibReached() < 0 ? Numbers.NONE : Numbers.perEvent((double) c.kibReached() / c.rounds()));
        }
        return t.render();
    }
}

package io.flushcheck.vm;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.Escape;
import io.flushcheck.Numbers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The host's own probe of the directory holding the guests' disk images against each guest, per sync
 * mode: median, p99, the flushes the guest's disk completed, the flushes the host's disk received, the
 * verdict, and the ratios guest/host.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
public final class VmComparison {

    /**
     * One environment's figures for one mode.
     *
     * @param guestFlushes flushes the guest's disk completed (null for the host)
     * @param hostFlushes  flushes that reached the host's disk: the host probe's own count, or the guest's loop device's
     * @param p50Ratio     guest median / host median (1 for the host; null when either is missing)
     */
    public record Row(String mode, String environment, String verdict, Double p50Micros, Double p99Micros,
                      Long guestFlushes, Long hostFlushes, Double p50Ratio, Double p99Ratio) {
    }

    private final String hostPath;
    private final List<Row> rows;

    private VmComparison(String hostPath, List<Row> rows) {
        this.hostPath = hostPath;
        this.rows = List.copyOf(rows);
    }

    public List<Row> rows() {
        return rows;
    }

    public static VmComparison of(CheckResult host, List<VmResult> guests) {
        Set<String> modes = new LinkedHashSet<>();
        for (SyncCost c : host.costs()) {
            modes.add(c.mode().id());
        }
        for (VmResult g : guests) {
            for (SyncCost c : g.result().costs()) {
                modes.add(c.mode().id());
            }
        }
        List<Row> rows = new ArrayList<>();
        for (String mode : modes) {
            SyncCost hc = cost(host, mode);
            Double hp50 = hc == null ? null : hc.p50Micros();
            Double hp99 = hc == null ? null : hc.p99Micros();
            rows.add(new Row(mode, "host", host.verdict().name(), hp50, hp99, null,
                    hc == null || hc.flushesReached() < 0 ? null : hc.flushesReached(), hp50 == null ? null : 1.0,
                    hp99 == null ? null : 1.0));
            for (VmResult g : guests) {
                SyncCost gc = cost(g.result(), mode);
                Double p50 = gc == null ? null : gc.p50Micros();
                Double p99 = gc == null ? null : gc.p99Micros();
                rows.add(new Row(mode, g.environment(), g.verdict().name(), p50, p99, gc == null ? null : g.guestFlushes(gc),
                        gc == null ? null : g.hostFlushes(gc), ratio(p50, hp50), ratio(p99, hp99)));
            }
        }
        return new VmComparison(host.path(), rows);
    }

    private static SyncCost cost(CheckResult r, String mode) {
        for (SyncCost c : r.costs()) {
            if (c.mode().id().equals(mode)) {
                return c;
            }
        }
        return null;
    }

    /** The table, one row per mode and environment. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "host/guest comparison (host: %s; ratios are guest/host; host flushes: what "
                + "reached the host's disk)%n", Escape.of(hostPath)));
        int envWidth = 11;
        for (Row r : rows) {
            envWidth = Math.max(envWidth, r.environment().length());
        }
        String fmt = "%-20s %-" + envWidth + "s %-13s %10s %10s %13s %12s %9s %9s%n";
        sb.append(String.format(Locale.ROOT, fmt, "mode", "environment", "verdict", "p50 µs", "p99 µs", "guest flushes",
                "host flushes", "p50 ratio", "p99 ratio"));
        String last = null;
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, fmt, r.mode().equals(last) ? "" : r.mode(), r.environment(), r.verdict(),
                    micros(r.p50Micros()), micros(r.p99Micros()), count(r.guestFlushes()), count(r.hostFlushes()),
                    ratioText(r.p50Ratio()), ratioText(r.p99Ratio())));
            last = r.mode();
        }
        return sb.toString();
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("host", hostPath);
        List<Object> rs = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("mode", r.mode());
            rm.put("environment", r.environment());
            rm.put("verdict", r.verdict());
            rm.put("p50Micros", r.p50Micros());
            rm.put("p99Micros", r.p99Micros());
            rm.put("guestFlushes", r.guestFlushes());
            rm.put("hostFlushes", r.hostFlushes());
            rm.put("p50Ratio", r.p50Ratio());
            rm.put("p99Ratio", r.p99Ratio());
            rs.add(rm);
        }
        m.put("rows", rs);
        return m;
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    private static String micros(Double v) {
        return v == null ? "-" : Numbers.micros(v);
    }

    private static String count(Long v) {
        return v == null || v < 0 ? "-" : Long.toString(v);
    }

    private static String ratioText(Double v) {
        if (v == null) {
            return "-";
        }
        return v >= 10 || v < 0.1 ? String.format(Locale.ROOT, "%.3gx", v) : String.format(Locale.ROOT, "%.2fx", v);
    }
}

package io.flushcheck.vm;

import io.flushcheck.CheckResult;
import io.flushcheck.probe.SyncCost;
import io.flushcheck.report.TextTable;
import io.flushcheck.text.Escape;
import io.flushcheck.text.Numbers;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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
        TextTable t = new TextTable().text("mode").text("environment").text("verdict").figure("p50 µs").figure("p99 µs")
                .figure("guest flushes").figure("host flushes").figure("p50 ratio").figure("p99 ratio");
        String last = null;
        for (Row r : rows) {
            t.row(r.mode().equals(last) ? "" : r.mode(), Escape.of(r.environment()), r.verdict(), micros(r.p50Micros()),
                    micros(r.p99Micros()), count(r.guestFlushes()), count(r.hostFlushes()), ratioText(r.p50Ratio()),
                    ratioText(r.p99Ratio()));
            last = r.mode();
        }
        return sb.append(t.render()).toString();
    }

    /**
     * The comparison as {@code flushcheck vm --json} writes it ({@link io.flushcheck.report.Json}): each component
     * a field.
     *
     * @param host the host probe's path
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1.0")
    public record Document(String host, List<Row> rows) {

        public Document {
            rows = List.copyOf(rows);
        }
    }

    public Document document() {
        return new Document(hostPath, rows);
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    private static String micros(Double v) {
        return v == null ? Numbers.NONE : Numbers.micros(v);
    }

    private static String count(Long v) {
        return v == null ? Numbers.NONE : Numbers.count(v);
    }

    private static String ratioText(Double v) {
        return v == null ? Numbers.NONE : Numbers.ratio(v);
    }
}

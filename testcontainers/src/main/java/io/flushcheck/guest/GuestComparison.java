package io.flushcheck.guest;

import io.flushcheck.probe.SyncMode;
import io.flushcheck.report.ResultData;
import io.flushcheck.report.TextTable;
import io.flushcheck.text.Escape;
import io.flushcheck.text.Numbers;
import io.flushcheck.verdict.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Host against each guest, per sync mode: median, p99, flushes per sync, verdict, and the ratios
 * guest/host. Works on {@link ResultData}, each with its {@code environment}, so it compares results from
 * anywhere: this JVM, a guest, a file read with {@link io.flushcheck.report.ResultJson#parse}.
 *
 * <p>A guest whose median sync is more than {@value #FAR_FASTER} times faster than the host's real flush
 * on the same disk, and whose device counters do not show the flushes arriving (under 0.5 per sync, or no
 * counters at all), is called out: a drive that really flushes takes hundreds of microseconds to
 * milliseconds per flush, so a guest answering in tens of microseconds on the same disk is not waiting for
 * it (for example a VM whose disk cache mode drops flushes).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class GuestComparison {

    /** How much faster than the host's real flush a guest's sync must be to be called out. */
    public static final double FAR_FASTER = 10;

    /**
     * One environment's numbers for one mode.
     *
     * @param p50Ratio guest median / host median (1 for the host; null when either is missing)
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Row(SyncMode mode, String environment, Verdict verdict, Double p50Micros, Double p99Micros,
                      Double flushesPerSync, Double p50Ratio, Double p99Ratio) {
    }

    /** A guest whose syncs are far faster than the host's real flush. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Callout(String environment, SyncMode mode, double guestP50Micros, double hostP50Micros, double factor,
                          String message) {
    }

    private final ResultData host;
    private final List<Row> rows;
    private final List<Callout> callouts;

    private GuestComparison(ResultData host, List<Row> rows, List<Callout> callouts) {
        this.host = host;
        this.rows = List.copyOf(rows);
        this.callouts = List.copyOf(callouts);
    }

    public List<Row> rows() {
        return rows;
    }

    public List<Callout> callouts() {
        return callouts;
    }

    /**
     * @param results results, one of them with {@code environment} {@code host}
     * @throws IllegalArgumentException when there is no host result
     */
    public static GuestComparison of(List<ResultData> results) {
        ResultData host = null;
        List<ResultData> guests = new ArrayList<>();
        for (ResultData r : results) {
            if (GuestEnvironment.HOST.equals(r.environment())) {
                host = r;
            } else {
                guests.add(r);
            }
        }
        if (host == null) {
            throw new IllegalArgumentException("no host result to compare with (an element with environment \"host\")");
        }
        Set<SyncMode> modes = new LinkedHashSet<>();
        for (ResultData.Cost c : host.costs()) {
            modes.add(c.mode());
        }
        for (ResultData g : guests) {
            for (ResultData.Cost c : g.costs()) {
                modes.add(c.mode());
            }
        }
        List<Row> rows = new ArrayList<>();
        List<Callout> callouts = new ArrayList<>();
        boolean hostReal = host.verdict() == Verdict.REAL_FLUSH;
        for (SyncMode mode : modes) {
            ResultData.Cost hc = host.cost(mode);
            Double hp50 = hc == null ? null : num(hc.p50Micros());
            Double hp99 = hc == null ? null : num(hc.p99Micros());
            Double hfps = hc == null ? null : num(hc.flushesPerSync());
            rows.add(new Row(mode, GuestEnvironment.HOST, host.verdict(), hp50, hp99, hfps,
                    hp50 == null ? null : 1.0, hp99 == null ? null : 1.0));
            for (ResultData g : guests) {
                ResultData.Cost gc = g.cost(mode);
                Double p50 = gc == null ? null : num(gc.p50Micros());
                Double p99 = gc == null ? null : num(gc.p99Micros());
                Double fps = gc == null ? null : num(gc.flushesPerSync());
                String env = String.valueOf(g.environment());
                rows.add(new Row(mode, env, g.verdict(), p50, p99, fps, ratio(p50, hp50), ratio(p99, hp99)));
                boolean hostFlushed = hostReal && hfps != null && hfps >= 0.5;
                // Far faster AND not shown reaching a device: a guest whose counters show the flushes is only noise.
                boolean guestFlushed = fps != null && fps >= 0.5;
                if (hostFlushed && !guestFlushed && mode != SyncMode.NO_SYNC && p50 != null && hp50 != null && p50 > 0
                        && p50 * FAR_FASTER < hp50) {
                    double factor = hp50 / p50;
                    callouts.add(new Callout(env, mode, p50, hp50, factor, String.format(Locale.ROOT,
                            "%s: %s takes %s µs in the median, %.0fx faster than the host's real flush (%s µs, %s "
                                    + "flushes per sync) on the same disk: its syncs do not reach the disk (%s flushes "
                                    + "per sync, verdict %s)", env, mode.id(), Numbers.micros(p50), factor, Numbers.micros(hp50),
                            fmtNum(hfps), fps == null ? "unknown" : fmtNum(fps), g.verdict())));
                }
            }
        }
        return new GuestComparison(host, rows, callouts);
    }

    /** The table, then the callouts. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "host/guest comparison (host: %s, %s; ratios are guest/host)%n",
                Escape.of(host.path()), host.verdict()));
        TextTable t = new TextTable().text("mode").text("environment").text("verdict").figure("p50 µs")
                .figure("p99 µs").figure("flushes/sync").figure("p50 ratio").figure("p99 ratio");
        SyncMode last = null;
        for (Row r : rows) {
            t.row(r.mode() == last ? "" : r.mode().id(), Escape.of(r.environment()), String.valueOf(r.verdict()),
                    micros(r.p50Micros()), micros(r.p99Micros()), fmtNum(r.flushesPerSync()), ratioText(r.p50Ratio()),
                    ratioText(r.p99Ratio()));
            last = r.mode();
        }
        sb.append(t.render());
        if (callouts.isEmpty()) {
            sb.append("no guest syncs far faster than the host's real flush\n");
        } else {
            sb.append("far faster than the host's real flush:\n");
            for (Callout c : callouts) {
                sb.append("  ! ").append(Escape.of(c.message())).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The comparison as {@code flushcheck guests --json} writes it ({@link io.flushcheck.report.Json}): each
     * component a field.
     *
     * @param host            the host result's path
     * @param farFasterFactor {@link #FAR_FASTER}
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Document(String host, double farFasterFactor, List<Row> rows, List<Callout> callouts) {
    }

    public Document document() {
        return new Document(host.path(), FAR_FASTER, rows, callouts);
    }

    /** A measured figure, or null for NaN (not measured). */
    private static Double num(double v) {
        return Double.isNaN(v) ? null : v;
    }

    private static Double ratio(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : a / b;
    }

    private static String micros(Double v) {
        return v == null ? Numbers.NONE : Numbers.micros(v);
    }

    private static String fmtNum(Double v) {
        return v == null ? Numbers.NONE : Numbers.perEvent(v);
    }

    private static String ratioText(Double v) {
        return v == null ? Numbers.NONE : Numbers.ratio(v);
    }
}

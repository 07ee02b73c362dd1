package io.flushcheck.report;

import io.flushcheck.probe.LatencyDistribution;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** The points of a latency percentile curve, shared by the HTML report and the JSON result a guest sends back. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PercentileCurve {

    private PercentileCurve() {
    }

    /**
     * The percentile curve as HdrHistogram's percentile distribution gives it: points spaced evenly in
     * log10(1 / (1 - p)), out to where the rounds still tell percentiles apart (99.9% for 1000 rounds),
     * then the maximum.
     */
    public static List<double[]> of(LatencyDistribution d) {
        List<double[]> out = new ArrayList<>();
        long n = d.count();
        if (n == 0) {
            return out;
        }
        double decades = Math.max(1, Math.log10(n));
        int steps = 48;
        java.util.TreeSet<Double> xs = new java.util.TreeSet<>();
        for (int i = 0; i <= steps; i++) {
            xs.add(decades * i / steps);
        }
        // The median and the decades (90%, 99%, ...) exactly, where a reader looks for them.
        xs.add(Math.log10(2));
        for (int k = 1; k <= decades + 1e-9; k++) {
            xs.add((double) k);
        }
        for (double x : xs) {
            double p = 100 * (1 - Math.pow(10, -x));
            out.add(new double[] {p, d.percentileMicros(p)});
        }
        out.add(new double[] {100, d.maxMicros()});
        return out;
    }
}

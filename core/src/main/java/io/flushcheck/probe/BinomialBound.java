package io.flushcheck.probe;

/**
 * The exact (Clopper-Pearson) one-sided upper confidence bound on a proportion: the largest chance p
 * for which seeing {@code k} or fewer successes in {@code n} tries still has probability {@code alpha}.
 */
final class BinomialBound {

    private BinomialBound() {
    }

    /** The p with P(X ≤ k | n, p) = alpha, for 0 ≤ k < n; found by bisection on the binomial CDF. */
    static double upper(int k, int n, double alpha) {
        if (n <= 0 || k < 0 || k >= n) {
            throw new IllegalArgumentException("need 0 <= k < n, not k=" + k + ", n=" + n);
        }
        double lo = (double) k / n;
        double hi = 1;
        for (int i = 0; i < 60; i++) {
            double mid = (lo + hi) / 2;
            if (cdf(k, n, mid) > alpha) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** P(X ≤ k) for X ~ Binomial(n, p), summed in log space so that large n cannot underflow a term early. */
    static double cdf(int k, int n, double p) {
        if (p <= 0) {
            return 1;
        }
        if (p >= 1) {
            return k >= n ? 1 : 0;
        }
        double logP = Math.log(p);
        double logQ = Math.log1p(-p);
        double sum = 0;
        double logChoose = 0; // log C(n, 0)
        for (int j = 0; j <= k; j++) {
            if (j > 0) {
                logChoose += Math.log(n - j + 1) - Math.log(j);
            }
            sum += Math.exp(logChoose + j * logP + (n - j) * logQ);
        }
        return Math.min(1, sum);
    }

    /** P(X ≥ k) for X ~ Binomial(n, p), summed from k up so that a tiny tail keeps its digits. */
    static double tail(int k, int n, double p) {
        if (k <= 0) {
            return 1;
        }
        if (k > n || p <= 0) {
            return 0;
        }
        if (p >= 1) {
            return 1;
        }
        double logP = Math.log(p);
        double logQ = Math.log1p(-p);
        double logChoose = logChoose(n, k);
        double sum = 0;
        for (int j = k; j <= n; j++) {
            if (j > k) {
                logChoose += Math.log(n - j + 1) - Math.log(j);
            }
            sum += Math.exp(logChoose + j * logP + (n - j) * logQ);
        }
        return Math.min(1, sum);
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int j = 1; j <= k; j++) {
            s += Math.log(n - k + j) - Math.log(j);
        }
        return s;
    }
}

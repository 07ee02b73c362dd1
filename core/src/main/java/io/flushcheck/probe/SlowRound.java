package io.flushcheck.probe;

import org.apiguardian.api.API;

/**
 * One round and, when per-round counters were on, what the devices did during it.
 *
 * @param index   0-based round number
 * @param nanos   its latency
 * @param flushes flushes the terminal devices completed during it, or -1 if not sampled
 * @param kibWritten KiB the terminal devices wrote during it, or -1 if not sampled
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record SlowRound(int index, long nanos, long flushes, long kibWritten) {

    public double micros() {
        return nanos / 1000.0;
    }
}

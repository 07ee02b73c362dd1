package io.flushcheck.verdict;

import org.apiguardian.api.API;

/** Whether syncs in a directory make data durable on a device. */
@API(status = API.Status.STABLE, since = "0.1")
public enum Verdict {
    /** Syncs reached a device that persists them (or one without a volatile cache). */
    REAL_FLUSH,
    /** Syncs do not reach a device: memory, an interposer, barriers off, or counters that stayed still. */
    NO_REAL_FLUSH,
    /** The evidence does not decide it; the findings say what is missing. */
    UNKNOWN
}

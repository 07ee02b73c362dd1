package io.flushcheck.probe;

import org.apiguardian.api.API;

/** Progress of a long probe, for a command's stderr or a test's report. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ProbeListener {

    /** Ignores progress. A class, not a lambda: the cold path (docs/architecture.md). */
    ProbeListener NONE = new ProbeListener() {
        @Override
        public void progress(SyncMode mode, int done, int total) {
        }
    };

    /** Called when a mode starts (done 0), every twentieth of its rounds (at most every 100), and when it ends (done == total). */
    void progress(SyncMode mode, int done, int total);
}

package io.flushcheck.probe;

/** Progress of a long probe, for a command's stderr or a test's report. */
@FunctionalInterface
public interface ProbeListener {

    ProbeListener NONE = (mode, done, total) -> { };

    /** Called when a mode starts (done 0), every few hundred rounds, and when it ends (done == total). */
    void progress(SyncMode mode, int done, int total);
}

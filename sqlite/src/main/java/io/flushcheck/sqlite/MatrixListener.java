package io.flushcheck.sqlite;

import org.apiguardian.api.API;

/** Progress of the commit-rate matrix, for a command's stderr or a test's report. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface MatrixListener {

    MatrixListener NONE = new MatrixListener() { };

    /** The directory's verdict is being checked (a short probe). */
    default void checking(java.nio.file.Path dir) {
    }

    /** Cell {@code index} (0-based) of {@code total} starts. */
    default void cellStarted(int index, int total, String label) {
    }

    default void cellFinished(int index, int total, CommitCell cell) {
    }

    /** Cell {@code index} could not run: the directory cannot be written; no further cell runs. */
    default void cellFailed(int index, int total, String reason) {
    }

    /** Files that flushcheck processes no longer alive left in the directory were removed; one sentence. */
    default void staleFilesRemoved(String message) {
    }

    /** The total time limit was reached: {@code skipped} cells will not run. */
    default void timeLimitReached(int skipped) {
    }
}

package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The crash states of one recorded run as its model checks them, one implementation per model
 * ({@link BlockCrashStates}, {@link FileCrashStates}): what the crash states' face shows of a recording, and the
 * check of its states. The face holds what both models share: the recording's id, the workers asked for, the
 * checks of a caller's arguments.
 */
interface ModelStates extends AutoCloseable {

    /** The failing states explained by file, fewest writes lost first: a person reads the first few. */
    int EXPLAINED = 3;

    /** The check run on each state's survivor, as the face hands it down: {@code mustSurvive} is what was acknowledged before the state. */
    @FunctionalInterface
    interface Verify {
        void verify(Path survivor, List<String> mustSurvive) throws Exception;
    }

    /** Hears how far an enumeration of the states is: {@code epochs} enumerated, {@code states} distinct states found. */
    @FunctionalInterface
    interface Progress {
        void enumerated(int epochs, long states);
    }

    /** {@link DiskModel#BLOCK} or {@link DiskModel#FILE}. */
    DiskModel model();

    /** The file model's rules the workload was recorded under; null on the block model. */
    default FileRules rules() {
        return null;
    }

    /** The filesystem the workload ran on; {@code files} for the file model. */
    String fs();

    /** The bytes the drive wrote atomically; 1 for the file model. */
    int atomicWriteBytes();

    /** What the workload acknowledged while it was recorded. */
    AcknowledgedRecords acknowledged();

    /** The epochs of the recording: the writes between two flushes (on the file model, the operations between two syncs). */
    int epochs();

    /** The writes, or the file model's operations, of the recording. */
    int writes();

    /** The states a check with the bound {@code maxStates} checks, enumerated once for a bound, {@code progress} hearing how far. */
    int states(int maxStates, Progress progress);

    /**
     * Adds to the states checked up to {@code count} drawn from {@code seed}.
     *
     * @throws UnsupportedOperationException where the model draws none
     */
    void draw(int count, long seed);

    /**
     * Checks the states of share {@code shard} of {@code shards} within {@code maxStates}, on up to {@code workers}
     * workers at once where the model can, {@code verification} run on each.
     */
    CrashStateReport check(int maxStates, int shard, int shards, int workers, Verify verification)
            throws IOException;

    /** Keeps the recording in {@code saved}, a directory made now (or empty); its id. */
    String save(Path saved) throws IOException;

    /** Closes the recording's files held open. */
    @Override
    void close() throws IOException;
}

package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The crash states of one recorded run as its model checks them, one implementation per model
 * ({@link BlockCrashStates}, {@link FileCrashStates}): what {@link CrashStates} shows of a recording, and the
 * check of its states. The face holds what both models share: the recording's id, the workers asked for, the
 * checks of a caller's arguments.
 */
interface ModelStates extends AutoCloseable {

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

    /** The epochs of the recording ({@link CrashStates#epochs()}). */
    int epochs();

    /** The writes, or the file model's operations, of the recording ({@link CrashStates#writes()}). */
    int writes();

    /** As {@link CrashStates#states(int, CrashStates.EnumerationProgress)}. */
    int states(int maxStates, CrashStates.EnumerationProgress progress);

    /**
     * Adds to the states checked up to {@code count} drawn from {@code seed} ({@link CrashStates#draw}).
     *
     * @throws UnsupportedOperationException where the model draws none
     */
    void draw(int count, long seed);

    /** As {@link CrashStates#check(int, int, int, CrashStates.Verification)}, on up to {@code workers} workers at once where the model can. */
    CrashStateReport check(int maxStates, int shard, int shards, int workers, CrashStates.Verification verification)
            throws IOException;

    /** Keeps the recording in {@code saved} ({@link CrashStates#save}); its id. */
    String save(Path saved) throws IOException;

    /** Closes the recording's files held open. */
    @Override
    void close() throws IOException;
}

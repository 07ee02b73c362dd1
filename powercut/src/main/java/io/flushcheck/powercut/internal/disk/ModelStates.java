package io.flushcheck.powercut.internal.disk;

import io.flushcheck.powercut.internal.explain.TreeView;
import io.flushcheck.powercut.internal.states.WritePlaces;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The crash states of one recorded run as its model checks them, one implementation per model
 * (the block model's {@code BlockCrashStates}, the file model's {@code FileCrashStates}): what the crash states' face shows of a recording, and the
 * check of its states. The face holds what both models share: the recording's id, what the workload acknowledged,
 * the workers asked for, the checks of a caller's arguments.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface ModelStates extends AutoCloseable {

    /** The failing states explained by file, fewest writes lost first: a person reads the first few. */
    int EXPLAINED = 3;

    /**
     * The check run on each state's survivor, as the face hands it down: {@code flushesBefore} is the flushes
     * completed before the state's epoch, by which the face knows what must survive.
     */
    @FunctionalInterface
    interface Verify {
        void verify(Path survivor, long flushesBefore) throws Exception;
    }

    /**
     * A change to the bytes of one file of a state, as the state's check places it: bit {@code bit} (0 to 7) of byte
     * {@code offset} flipped, or ({@code bit} -1) {@code length} bytes from {@code offset} zeroed, in {@code file}
     * (relative to the state's survivor, '/' between names); {@code name} is how the face names it, and {@code block}
     * the face's own description of it, handed back in the report as it was given (this layer never looks into it),
     * so that nothing is read back from text.
     */
    record Damage(String name, String file, long offset, long length, int bit, Object block) {
    }

    /**
     * The damages each state is checked with, besides itself undamaged: each alone, on the state as the crash left
     * it, listed from the state before its verification runs. {@link #NONE}: none.
     */
    @FunctionalInterface
    interface Damages {
        Damages NONE = survivor -> List.of();

        List<Damage> of(Path survivor) throws IOException;
    }

    /** Keeps a recording's files where the face says, with what the face adds; the recording's id. */
    interface Keeper {
        /** Keeps the block model's recording: its base image and log, and what is said of them. */
        String block(RegularFile base, RegularFile log, String fsType, int atomicUnit, WritePlaces places,
                     TreeView ended) throws IOException;

        /** Keeps the file model's recording: its log of operations. */
        String files(RegularFile log) throws IOException;
    }

    /** Hears how far an enumeration of the states is: {@code epochs} enumerated, {@code states} distinct states found. */
    @FunctionalInterface
    interface Progress {
        void enumerated(int epochs, long states);
    }

    /** The file model's rules the workload was recorded under, by their word; null on the block model. */
    default String rules() {
        return null;
    }

    /** The filesystem the workload ran on; {@code files} for the file model. */
    String fs();

    /** The bytes the drive wrote atomically; 1 for the file model. */
    int atomicWriteBytes();

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
    default CheckReport check(int maxStates, int shard, int shards, int workers, Verify verification)
            throws IOException {
        return check(maxStates, shard, shards, workers, verification, Damages.NONE);
    }

    /**
     * As {@link #check(int, int, int, int, Verify)}, each state checked besides with each of the damages
     * {@code damages} lists for it, each on the state as the crash left it and undone before anything else is made
     * from the state; a failing check with a damage says it ({@link CheckReport.Failure#damaged()}).
     */
    CheckReport check(int maxStates, int shard, int shards, int workers, Verify verification, Damages damages)
            throws IOException;

    /**
     * Lets the file model serve its large states over FUSE mounts from this process rather than write them out: the
     * verification reads them in processes of its own only. The block model mounts its states whatever this says.
     */
    default void serveStates() {
    }

    /** Keeps the recording's files with {@code keeper}; the recording's id. */
    String save(Keeper keeper) throws IOException;

    /** Closes the recording's files held open. */
    @Override
    void close() throws IOException;
}

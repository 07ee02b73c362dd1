package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A recording's crash states written out in the order of their epochs, each into the directory of the one that asks
 * ({@link #place}): the recording is played once, stepped on to a state's epoch when the state is asked for, and the
 * state written from the tree there. A place is a {@link StateDirectory}: the states it holds in turn come in epoch
 * order as well, so each is written from the one it held before by what differs. Several places take states from one
 * stepping (the workers of a check, each verifying its own state beside the others'); the states are asked for one
 * at a time, their epochs never going back, and a place's state is its own to verify, change and throw away until it
 * asks for the next.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StateSteps implements AutoCloseable {

    private final TreeReplay replay;
    /** The epoch's end the tree is at; null before the first step. */
    private TreeReplay.EpochEnd at;

    private StateSteps(TreeReplay replay) {
        this.replay = replay;
    }

    /** The states of {@code recording}, played in a tree kept under {@code scratch}, removed on {@link #close}. */
    public static StateSteps open(RegularFile recording, Path scratch) throws IOException {
        return new StateSteps(TreeReplay.open(recording, scratch, true));
    }

    /** A place to write states into: {@code dir}, which need not exist, and {@code dir + ".clock"} beside it. */
    public Place place(Path dir) {
        return new Place(dir);
    }

    /**
     * Makes {@code place} hold {@code state}, the recording played on to its epoch's end first.
     *
     * @throws IllegalStateException when the state's epoch is before one a state was written at, or past the
     *     recording's end
     */
    public synchronized void write(TreeStates.Candidate state, Place place) throws IOException {
        if (at != null && state.epoch() < at.epoch()) {
            throw new IllegalStateException("crash state of epoch " + state.epoch() + " asked for after one of epoch "
                    + at.epoch() + ": the states are written in the order of their epochs");
        }
        while (at == null || at.epoch() < state.epoch()) {
            TreeReplay.EpochEnd next = replay.next();
            if (next == null) {
                throw new IllegalStateException("crash state of epoch " + state.epoch() + " asked for past the"
                        + " recording's end");
            }
            at = next;
        }
        place.directory.write(at.tree(), state.state().pick());
    }

    /** Removes the tree the recording was played in. */
    @Override
    public void close() throws IOException {
        replay.close();
    }

    /** A directory that holds the states written into it in turn ({@link #write}); closed, it is removed. */
    public static final class Place implements AutoCloseable {
        private final Path dir;
        private final StateDirectory directory;

        private Place(Path dir) {
            this.dir = dir;
            this.directory = new StateDirectory(dir);
        }

        /** The directory that holds the state written last. */
        public Path dir() {
            return dir;
        }

        /** Removes the directory, whatever it holds, and the file beside it its writing reads the clock from. */
        @Override
        public void close() throws IOException {
            directory.close();
        }
    }
}

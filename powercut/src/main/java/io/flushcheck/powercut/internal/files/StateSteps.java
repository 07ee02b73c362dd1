package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.cleanup.Leftovers;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
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
    private final Path scratch;
    /** The epoch's end the tree is at; null before the first step. */
    private TreeReplay.EpochEnd at;

    private StateSteps(TreeReplay replay, Path scratch) {
        this.replay = replay;
        this.scratch = scratch;
    }

    /** The states of {@code recording}, played in a tree kept under {@code scratch}, removed on {@link #close}. */
    public static StateSteps open(RegularFile recording, Path scratch) throws IOException {
        return new StateSteps(TreeReplay.open(recording, scratch, true), scratch);
    }

    /** A place to write states into: {@code dir}, which need not exist, and {@code dir + ".clock"} beside it. */
    public Place place(Path dir) {
        return place(dir, null, 0);
    }

    /**
     * A place to write states into, as {@link #place(Path)}, whose states of at least {@code servedFrom} names are
     * served on {@code served} instead (an empty directory, or made when first needed and then removed with the place;
     * null: none is), each from a
     * tree of the place's own in memory, over a FUSE mount of its own while {@link Place#hold held}
     * ({@link ServedState}): processes of their own only may use it.
     */
    public Place place(Path dir, Path served, int servedFrom) {
        return place(dir, served, servedFrom, null);
    }

    /**
     * As {@link #place(Path, Path, int)}, each mount on {@code served} noted first in the work directory {@code work}
     * ({@link Leftovers#record}), so that a run that dies serving leaves nothing the next cannot remove; null: not
     * noted.
     */
    public Place place(Path dir, Path served, int servedFrom, Path work) {
        return new Place(dir, served, servedFrom, scratch, work);
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
        place.write(at.tree(), state.state().pick());
    }

    /** Removes the tree the recording was played in. */
    @Override
    public void close() throws IOException {
        replay.close();
    }

    /**
     * A directory that holds the states written into it in turn ({@link #write}), or a tree of its own that serves the
     * large ones; closed, both are removed.
     */
    public static final class Place implements AutoCloseable {
        private final Path dir;
        private final StateDirectory directory;
        private final Path served;
        private final int servedFrom;
        private final ServedTree trees;
        /** The state written last when it is to be served, or null when the directory holds it. */
        private FileTree serving;
        /** Whether a check may have changed the tree served last: the next is then made whole. */
        private boolean changed;
        /** Whether this made the directory states are served on, and removes it. */
        private boolean madeServed;
        /** The work directory its mounts are noted in, or null. */
        private final Path work;
        /** Whether its mount point is noted in {@link #work} already. */
        private boolean noted;

        private Place(Path dir, Path served, int servedFrom, Path scratch, Path work) {
            this.work = work;
            this.dir = dir;
            this.directory = new StateDirectory(dir);
            this.served = served;
            this.servedFrom = servedFrom;
            this.trees = served == null ? null : new ServedTree(scratch);
        }

        /** Makes this hold {@code pick} of {@code tree} as it is now: written into the directory, or made to serve. */
        private void write(FileTree tree, StatePick pick) throws IOException {
            if (trees == null) {
                directory.write(tree, pick);
                return;
            }
            List<TreeWriter.Written> layout = tree.layout(pick);
            if (layout.size() >= servedFrom) {
                serving = trees.make(tree, layout, changed);
                changed = true; // until its check is known to have changed nothing
            } else {
                directory.write(tree, layout);
                serving = null;
            }
        }

        /** The directory that holds the state written last, unless that state is served ({@link #hold}). */
        public Path dir() {
            return dir;
        }

        /** Makes the state written last reachable for a check until the returned hold is closed. */
        public Held hold() throws IOException {
            if (serving == null) {
                return new Held(dir, null);
            }
            if (!Files.isDirectory(served, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(served);
                madeServed = true;
            }
            if (work != null && !noted) {
                Leftovers.record(work, "mount", served.toString()); // before the mount, as the disks note theirs
                noted = true;
            }
            return new Held(served, ServedState.mount(serving, served));
        }

        /** Removes the directory, whatever it holds, the file beside it its writing reads the clock from, and the tree. */
        @Override
        public void close() throws IOException {
            try {
                directory.close();
            } finally {
                if (trees != null) {
                    trees.close();
                }
                if (madeServed) {
                    Files.deleteIfExists(served);
                }
            }
        }

        /** The state written last, where a check finds it: the place's directory, or a mount serving it. */
        public final class Held implements AutoCloseable {
            private final Path path;
            private final ServedState mount;

            private Held(Path path, ServedState mount) {
                this.path = path;
                this.mount = mount;
            }

            /** Where the state is. */
            public Path path() {
                return path;
            }

            /**
             * Unmounts a served state, noting whether a check changed it. The count of change requests is read
             * after the unmount, so that a request arriving until then is counted; a state whose unmount failed
             * counts as changed.
             */
            @Override
            public void close() throws IOException {
                if (mount != null) {
                    boolean closed = false;
                    try {
                        mount.close();
                        closed = true;
                    } finally {
                        changed = !closed || mount.changed();
                    }
                }
            }
        }
    }
}

package io.flushcheck.powercut.internal.disk;

import io.flushcheck.powercut.internal.host.DriveClient;
import io.flushcheck.powercut.internal.host.DriveHost;
import io.flushcheck.powercut.internal.kernel.Mounts;
import io.flushcheck.powercut.internal.sys.PageCache;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Deque;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.apiguardian.api.API;

/**
 * What a simulated disk's model decides, one implementation per model (the block model's {@code BlockDisk}, the
 * file model's {@code FileDisk}): the drive its server serves and what is made on it, what a cut leaves to read and says
 * of itself, how a recording starts and what its crash states are, and what stays mounted once the server
 * has stopped. The disk holds what both models share: the drive's power and its cuts, the worlds that die
 * with it, a recorded workload, and the teardown.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface ModelDisk {

    /** The filesystem on the drive; {@code files} for the file model. */
    String fsType();

    /** The bytes the drive writes atomically; 1 for the file model, where a cut keeps or loses each write whole. */
    int atomicWriteBytes();

    /** The file model's rules by their word ({@code journaled} or {@code posix}); null on the block model. */
    default String rules() {
        return null;
    }

    /** The loop device carrying the filesystem; null on the file model. */
    default String loopDevice() {
        return null;
    }

    /** True when the kernel reads and writes the drive with direct I/O; false on the file model. */
    default boolean directIo() {
        return false;
    }

    /** Where the disk is mounted; null until {@link #serve} or {@link #start} has made the place. */
    Path path();

    /** Has {@code host} serve this model's drive under {@code work}, the disk's claimed work directory. */
    DriveClient serve(DriveHost host, Path work) throws IOException;

    /**
     * Makes the served drive a disk to use at {@link #path()}, asking {@code drive}; what undoes each step it
     * takes goes onto {@code undo}, which the disk runs, last first, when it closes (or the start fails).
     */
    void start(DriveClient drive, Deque<Runnable> undo) throws IOException;

    /** What a cut left: where it is readable, and what the cut discarded, said by file. */
    record Survivor(Path path, List<String> discarded) {
        public Survivor {
            discarded = List.copyOf(discarded);
        }
    }

    /**
     * What the cut just made discarded, said by file as far as it can be before its survivor is made (the disk
     * counts the cut with it first, so that a cut whose survivor cannot be made is still counted): the file
     * model's operations as they are. {@code discarded} is what the drive says the cut discarded (the file
     * model's operations, the block model's sector runs).
     */
    default List<String> discardedBeforeSurvivor(List<String> discarded) {
        return discarded;
    }

    /**
     * Makes what survived the cut just made readable at a new place, the disk's {@code n}-th survivor: where it is,
     * and what the cut discarded by file. {@code discarded} is what the drive says the cut discarded (the file
     * model's operations, the block model's sector runs).
     */
    Survivor survive(List<String> discarded, int n) throws IOException;

    /** Where a write fault lies: {@code length} bytes from {@code from} of {@code unit} (the block model's drive, 0; a file's node). */
    record FaultRange(long unit, long from, long length) {
    }

    /**
     * The refusal of a fault on {@code length} bytes from {@code offset} of {@code file} when the drive holds none of
     * them: never made durable (not synced before the cut), a hole, or past the file's end. Both models say it alike.
     */
    static IllegalArgumentException noBytesOnDrive(Path file, long offset, long length) {
        return new IllegalArgumentException(file + " has no bytes on the drive in " + offset + "+"
                + (length == Long.MAX_VALUE ? "(to the end)" : String.valueOf(length)));
    }

    /**
     * Where a write fault of {@code length} bytes from {@code offset} lies, range by range: in {@code file}'s bytes,
     * or the drive's where {@code file} is null.
     *
     * @throws IllegalArgumentException when it cannot be placed
     */
    List<FaultRange> place(Path file, long offset, long length) throws IOException;

    /** Where a read fault of {@code length} bytes from {@code offset} lies: by default where a write fault would. */
    default List<FaultRange> placeReads(Path file, long offset, long length) throws IOException {
        return place(file, offset, length);
    }

    /**
     * Where a change to data at rest of {@code length} bytes from {@code offset} of {@code file} (synced) lies: where a
     * read fault would, as a read is what meets it.
     */
    default List<FaultRange> placeData(Path file, long offset, long length) throws IOException {
        return placeReads(file, offset, length);
    }

    /**
     * Drops the clean cached pages of {@code file} (null: none) and of what holds {@code ranges}, just armed as
     * read faults, so the next reads reach the model: a read served from a cache cannot fail.
     */
    default void uncache(Path file, List<FaultRange> ranges) throws IOException {
        if (file != null) {
            PageCache.drop(file, 0, 0);
        }
    }

    /**
     * Serves what the last cut left ({@link #survive}) through a drive whose reads can fail, at the same place, and
     * returns that drive; the same drive on every later call. Read faults on a survivor are armed on it.
     *
     * @throws IllegalStateException when there is no survivor, or it cannot move now (files of it are open)
     */
    default DriveClient serveSurvivor() throws IOException {
        throw new IllegalStateException("this model's survivor cannot fail its reads");
    }

    /** The drive serving the last cut's survivor ({@link #serveSurvivor}); null while none does. */
    default DriveClient survivorDrive() {
        return null;
    }

    /**
     * Changes bytes of what the last cut left ({@link #survive}): {@code length} bytes from {@code offset} of {@code file},
     * a file there, or of the drive's survivor where {@code file} is null; bit {@code bit} of the one byte flipped, or
     * (-1) the bytes zeroed, and the pages that cached them dropped. Returns where they lie on the drive, when it has one.
     *
     * @throws IllegalArgumentException when the bytes have no place to change
     */
    List<FaultRange> corruptSurvivor(Path file, long offset, long length, int bit) throws IOException;

    /**
     * Has the drive record every change into {@code log}, in {@code dir}, from a durable start.
     *
     * @throws DriveClient.Refused when the drive does not start
     */
    void startRecording(Path dir, Path log) throws IOException;

    /**
     * The crash states of the recording in {@code dir}: {@code log} as the drive wrote it, {@code powered} whether
     * the power is still on, to look at the disk as the recording ended.
     */
    ModelStates crashStates(Path dir, Path log, BooleanSupplier powered) throws IOException;

    /**
     * Removes what the drive's server leaves mounted once it has stopped: {@code gone} when it could not be
     * asked to stop (it died).
     */
    void serverStopped(boolean gone);

    /** Unmounts {@code mountPoint} lazily; teardown goes on whatever happens. */
    static void unmountQuietly(Path mountPoint) {
        try {
            Mounts.unmountLazy(mountPoint);
        } catch (IOException e) {
            // teardown goes on; Leftovers names the mount if it stays
        }
    }
}

package io.flushcheck.probe;

import java.util.List;
import org.apiguardian.api.API;

/**
 * What to measure.
 *
 * @param modes            the sync modes, in order
 * @param blockSize        bytes written per round (4096, 65536, 1048576, or any size from 512 to 64 MiB)
 * @param rounds           rounds per mode (1 to 1,000,000)
 * @param perRoundCounters read device counters around every round, to show what the device did
 *                         during the slowest ones; it adds a few microseconds per round
 * @param slowRounds       how many of the slowest rounds to keep (0 to 100)
 * @param preallocate      the modes that write the next block each round (append-fsync, append-fdatasync, dsync,
 *                         no-sync) write into a file first preallocated with fallocate(2) to all their rounds'
 *                         bytes, from its start, as fio lays out a file for {@code --rw=write}: neither the size
 *                         nor the allocation changes, only the extents' state (unwritten to written). Where the filesystem cannot preallocate (fio's
 *                         {@code fallocate=native} cannot either), the file grows as it is written.
 * @param fileBytes        with {@code preallocate}, the size the file is preallocated to when it is more than the rounds
 *                         write ({@link #layoutBytes()}): fio's {@code --size} when it is no multiple of {@code --bs},
 *                         see {@link #fioWrite}; 0 for the rounds' bytes exactly
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record ProbePlan(List<SyncMode> modes, int blockSize, int rounds, boolean perRoundCounters, int slowRounds,
                        boolean preallocate, long fileBytes) {

    public static final int MIN_BLOCK = 512;
    public static final int MAX_BLOCK = 64 << 20;
    public static final int MAX_ROUNDS = 1_000_000;
    /** Bytes one appending mode may write (rounds × block size): a probe must not fill the disk. */
    public static final long MAX_BYTES_PER_MODE = 1L << 30;

    public ProbePlan {
        modes = List.copyOf(modes);
        if (modes.isEmpty()) {
            throw new IllegalArgumentException("a probe needs at least one sync mode; known modes: " + SyncMode.allIds());
        }
        for (SyncMode m : modes) {
            if (!m.availableOnThisOs()) {
                throw new IllegalArgumentException("sync mode '" + m.id() + "' exists on macOS only");
            }
        }
        if (blockSize < MIN_BLOCK || blockSize > MAX_BLOCK) {
            throw new IllegalArgumentException("block size " + blockSize + " is out of range: use " + MIN_BLOCK
                    + " to " + MAX_BLOCK + " bytes (4096, 65536, 1048576 are the usual ones)");
        }
        if (rounds < 1 || rounds > MAX_ROUNDS) {
            throw new IllegalArgumentException("rounds " + rounds + " is out of range: use 1 to " + MAX_ROUNDS);
        }
        if ((long) rounds * blockSize > MAX_BYTES_PER_MODE) {
            throw new IllegalArgumentException(rounds + " rounds of " + blockSize + " bytes would append "
                    + ((long) rounds * blockSize >> 20) + " MiB per mode; keep rounds × block size within 1 GiB");
        }
        if (fileBytes < 0 || fileBytes > MAX_BYTES_PER_MODE) {
            throw new IllegalArgumentException("a probe file of " + fileBytes + " bytes is out of range: use 0 to "
                    + (MAX_BYTES_PER_MODE >> 20) + " MiB");
        }
        if (slowRounds < 0 || slowRounds > 100) {
            throw new IllegalArgumentException("slow rounds " + slowRounds + " is out of range: use 0 to 100");
        }
    }

    /** A plan whose preallocated files, if {@code preallocate}, are as long as the rounds write. */
    public ProbePlan(List<SyncMode> modes, int blockSize, int rounds, boolean perRoundCounters, int slowRounds,
                     boolean preallocate) {
        this(modes, blockSize, rounds, perRoundCounters, slowRounds, preallocate, 0);
    }

    /** A plan whose files grow as they are written. */
    public ProbePlan(List<SyncMode> modes, int blockSize, int rounds, boolean perRoundCounters, int slowRounds) {
        this(modes, blockSize, rounds, perRoundCounters, slowRounds, false);
    }

    /**
     * The plan of fio's sequential write job {@code fio --rw=write --size=SIZE --bs=BLOCK} with {@code mode}'s sync
     * after each write ({@code --fdatasync=1}: append-fdatasync; {@code --fsync=1}: append-fsync; {@code --sync=1}:
     * dsync; none: no-sync), laid out as fio lays out its file: fio preallocates
     * the whole {@code --size} ({@code fallocate(fd, 0, 0, SIZE)}) and writes, from the start, only the blocks that
     * fit whole in it, leaving the last {@code SIZE % BLOCK} bytes allocated and unwritten (fio 3.33, seen with
     * strace: 10,029 writes of 2,300 bytes into a file of 22 MiB).
     */
    public static ProbePlan fioWrite(SyncMode mode, long size, int blockSize, int slowRounds) {
        if (!List.of(SyncMode.APPEND_FSYNC, SyncMode.APPEND_FDATASYNC, SyncMode.DSYNC, SyncMode.NO_SYNC).contains(mode)) {
            throw new IllegalArgumentException("fio's --rw=write appends: " + mode.id() + " rewrites or writes nothing");
        }
        if (size < blockSize) {
            throw new IllegalArgumentException("a size of " + size + " bytes holds no block of " + blockSize
                    + ": fio writes whole blocks only");
        }
        long rounds = size / blockSize;
        if (rounds > MAX_ROUNDS) {
            throw new IllegalArgumentException(size + " bytes in blocks of " + blockSize + " are " + rounds
                    + " rounds: use at most " + MAX_ROUNDS);
        }
        return new ProbePlan(List.of(mode), blockSize, (int) rounds, false, slowRounds, true, size);
    }

    /** The bytes a preallocated file is laid out to: its rounds' bytes, or {@code fileBytes} where that is more. */
    public long layoutBytes() {
        return Math.max((long) rounds * blockSize, fileBytes);
    }

    /** The full measurement of the command: every mode of this OS, 1000 rounds of 4 KiB. */
    public static ProbePlan defaults() {
        return new ProbePlan(SyncMode.available(), 4096, 1000, false, 5);
    }

    /** The short check behind {@code @RequiresRealFlush}: enough syncs to count, few enough to be quick. */
    public static ProbePlan verification() {
        return new ProbePlan(List.of(SyncMode.APPEND_FSYNC, SyncMode.OVERWRITE_FDATASYNC), 4096, 64, false, 0);
    }

    public ProbePlan withModes(List<SyncMode> m) {
        return new ProbePlan(m, blockSize, rounds, perRoundCounters, slowRounds, preallocate, fileBytes);
    }

    public ProbePlan withRounds(int r) {
        return new ProbePlan(modes, blockSize, r, perRoundCounters, slowRounds, preallocate, fileBytes);
    }

    public ProbePlan withBlockSize(int b) {
        return new ProbePlan(modes, b, rounds, perRoundCounters, slowRounds, preallocate, fileBytes);
    }
}

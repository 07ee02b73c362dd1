package io.flushcheck.powercut.internal.model;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.LongConsumer;
import org.apiguardian.api.API;

/**
 * What a simulated power cut acts on: a drive's sectors under a kernel filesystem ({@code SectorStore}, the
 * block model) or a tree of files served over FUSE ({@code FileTree}, the file model). Either counts its
 * flushes (the drive's cache flushes; the files' and directories' syncs), holds what is not yet durable,
 * and at a cut keeps what is, and in {@link CutMode#SUBSET} a seeded part of the rest.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface PowerLossModel {

    /** Linux's EIO: what a flush answers when the power goes at it. */
    int EIO = 5;

    /** What a power cut keeps of what is not durable. */
    enum CutMode {
        /** Nothing of it: what the last flushes made durable. */
        FLUSHED,
        /** A seeded random subset of it. */
        SUBSET
    }

    /** Flushes completed so far. */
    long flushes();

    /** Bytes written and not yet durable: what a cut now could lose. */
    long unflushedBytes();

    /** True once the power is gone. */
    boolean frozen();

    /** True when the power went at an armed flush ({@link #cutAtFlush}, {@link #cutDuringFlush}). */
    boolean armedCutHappened();

    /**
     * Cuts the power, keeping what is durable and in {@code SUBSET} mode a part of the rest drawn from
     * {@code seed}; returns {kept, discarded}, in the model's units. After an armed cut, says what it kept.
     */
    long[] cut(CutMode mode, long seed);

    /** Cuts the power the moment the {@code k}-th flush completes, running {@code atCut} (or nothing) first. */
    void cutAtFlush(long k, Runnable atCut);

    /** Cuts the power as the {@code k}-th flush arrives, keeping a subset drawn from {@code seed}; that flush fails. */
    void cutDuringFlush(long k, long seed);

    /**
     * Fails flushes with the power on: once {@code k} flushes have completed, the next one fails with
     * {@code errno} (nothing becomes durable by it; what the program's sync gets is the kernel's business),
     * and with {@code persistent} every one after it too; without, the flush after the failed one works again.
     */
    void failFlushesAfter(long k, boolean persistent, int errno);

    /** Flushes failed so far by {@link #failFlushesAfter}. */
    long failedFlushes();

    /**
     * Fails writes with the power on: a write touching {@code length} bytes from {@code from} of {@code unit}
     * (the block model's drive: 0; the file model: a file's node) fails with {@code errno} and changes nothing;
     * without {@code persistent}, only the first such write does.
     */
    void failWrites(long unit, long from, long length, boolean persistent, int errno);

    /** Writes failed so far by {@link #failWrites}. */
    long failedWrites();

    /**
     * Loses writes with the power on: a write touching {@code length} bytes from {@code from} of {@code unit} (as
     * {@link #failWrites} names them) is acknowledged, its bytes outside the range written and those inside not, the
     * range keeping its old contents; without {@code persistent}, only the first such write.
     */
    void loseWrites(long unit, long from, long length, boolean persistent);

    /**
     * Misdirects writes with the power on: as {@link #loseWrites}, and the bytes inside the range land on
     * {@code targetUnit} from {@code targetFrom} instead (byte {@code from} there, the rest after it).
     */
    void misdirectWrites(long unit, long from, long length, boolean persistent, long targetUnit, long targetFrom);

    /**
     * Loses writes to the file named {@code path} (from the root, '/' between names), as {@link #loseWrites} does,
     * planned before the file exists: armed on it at its first write by that name. A model that names no files refuses.
     */
    default void loseWritesTo(String path, long from, long length, boolean persistent) {
        throw new UnsupportedOperationException("this drive places faults by its own ranges, not by file names");
    }

    /**
     * Misdirects writes to the file named {@code path} to {@code targetFrom} of the file named {@code targetPath}, as
     * {@link #loseWritesTo} plans them.
     */
    default void misdirectWritesTo(String path, long from, long length, boolean persistent, String targetPath,
                                   long targetFrom) {
        throw new UnsupportedOperationException("this drive places faults by its own ranges, not by file names");
    }

    /** Writes lost so far by {@link #loseWrites}. */
    long lostWrites();

    /** Writes misdirected so far by {@link #misdirectWrites}. */
    long misdirectedWrites();

    /**
     * Fails reads with the power on: a read touching {@code length} bytes from {@code from} of {@code unit}
     * (the block model's drive: 0; the file model: a file's node) fails with {@code errno}; with
     * {@code persistent} every such read until a write covers the bytes (a bad sector), without only the first
     * (a transient error).
     */
    void failReads(long unit, long from, long length, boolean persistent, int errno);

    /** Reads failed so far by {@link #failReads}. */
    long failedReads();

    /**
     * Flips bit {@code bit} (0, the least significant, to 7) of byte {@code offset} of {@code unit} (the block model's
     * drive: 0; the file model: a file's node) with the power on, in what is durable and in what reads now: bit rot
     * in data at rest, not a write. Refused after a cut and while a workload is recorded (its crash states would
     * not hold the change).
     */
    void flipBit(long unit, long offset, int bit);

    /** As {@link #flipBit}: {@code length} bytes from {@code from} of {@code unit} read as zeros, durable and now. */
    void zero(long unit, long from, long length);

    /**
     * Runs {@code action} with each flush's number as it completes, under the model's lock, before the flush counts
     * and before its sync returns; null for none.
     */
    void whenCompleting(LongConsumer action);

    /** Runs {@code action} the moment the power goes, however it goes. */
    void whenFrozen(Runnable action);

    /** Writes what survived the cut to {@code to}: the drive's image file, or the tree into an empty directory. */
    void save(Path to) throws IOException;

    /**
     * Writes every change from now on into {@code log} until {@link #stopRecording()}, starting from what is
     * durable: the block model saves what the drive reads now to {@code base}, its recording's start; the file
     * model makes everything durable and writes the tree into the log itself, and takes no base (null).
     */
    void record(Path log, Path base) throws IOException;

    /** Ends the recording, its log complete on the disk; false when none was under way. */
    boolean stopRecording();

    /** Frees the files the model keeps its bytes in; it is not used again. */
    void close();

    /**
     * What the last cut discarded: the file model, an operation an entry with why it was not durable; the block
     * model, a run of the drive's sectors an entry ({@code SectorStore.discarded()}), for the filesystem to name.
     */
    default java.util.List<String> discarded() {
        return java.util.List.of();
    }

    /** What the last cut lost that only the model's rules lose, with what a real filesystem keeps; empty when nothing. */
    default String cutNote() {
        return "";
    }
}

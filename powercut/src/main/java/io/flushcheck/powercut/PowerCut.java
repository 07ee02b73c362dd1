package io.flushcheck.powercut;

import java.util.List;
import org.apiguardian.api.API;

/**
 * One power cut of a {@link SimulatedDisk}.
 *
 * @param seed           the seed of a {@code SUBSET} cut ({@link SimulatedDisk#cutPower(long)},
 *                       {@link SimulatedDisk#cutDuringFlush(long, long)}); null for a {@code FLUSHED} cut
 *                       ({@link SimulatedDisk#cutPower()}, {@link SimulatedDisk#cutAfterFlushes(long)})
 * @param flushes        flushes the drive had completed before the cut
 * @param unflushedBytes bytes written since the last flush, which the cut could lose
 * @param keptBytes      of those, the bytes the cut kept (always 0 for {@code FLUSHED})
 * @param armed          true when the cut happened at a flush armed beforehand, while the workload ran
 *                       ({@link SimulatedDisk#cutAfterFlushes(long)}, {@link SimulatedDisk#cutDuringFlush(long, long)})
 * @param lost           the file model's word on what only its rules lost (the POSIX rules' names that ext4, xfs
 *                       and btrfs keep; data only a syncfs or sync made durable, which no FUSE server sees); empty
 * @param discarded      what the cut discarded, by file, an entry a line with the sync that would have kept it. The
 *                       file model lists each operation since that sync ({@code rename config.tmp -> config in data,
 *                       directory not synced}, {@code 4096 bytes at offset 8192 of db/t.log, file not synced}). The
 *                       block model compares the interrupted filesystem, as the kernel held it when the cut was
 *                       made, with the survivor ({@code data/config is inode 12 (10 bytes) again, not 13 (18 bytes):
 *                       the rename or creation that replaced it not durable, no sync of directory data completed after it}),
 *                       then places the sectors the drive discarded in their files, the journal or the rest of the
 *                       filesystem's metadata. After an armed cut, the interrupted filesystem includes what an
 *                       in-JVM workload changed before it stopped. Empty when the cut lost nothing
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record PowerCut(Long seed, long flushes, long unflushedBytes, long keptBytes, boolean armed, String lost,
                       List<String> discarded) {

    public PowerCut {
        discarded = discarded == null ? List.of() : List.copyOf(discarded);
    }

    /** A cut that lists nothing it discarded. */
    public PowerCut(Long seed, long flushes, long unflushedBytes, long keptBytes, boolean armed, String lost) {
        this(seed, flushes, unflushedBytes, keptBytes, armed, lost, List.of());
    }

    /** A cut with nothing to say of what only the model's rules lost. */
    public PowerCut(Long seed, long flushes, long unflushedBytes, long keptBytes, boolean armed) {
        this(seed, flushes, unflushedBytes, keptBytes, armed, "");
    }

    /** A cut made when the test asked for it ({@code armed} false). */
    public PowerCut(Long seed, long flushes, long unflushedBytes, long keptBytes) {
        this(seed, flushes, unflushedBytes, keptBytes, false);
    }

    /** {@code FLUSHED} or {@code SUBSET}. */
    public String mode() {
        return seed == null ? "FLUSHED" : "SUBSET";
    }

    /**
     * The call that cuts the same way again: {@code cutPower()}, {@code cutPower(7)}, or for an armed cut
     * {@code cutAfterFlushes(12)} or {@code cutDuringFlush(13, 7)} (flushes counted from the disk's creation).
     */
    public String reproducedBy() {
        if (armed) {
            return seed == null ? "cutAfterFlushes(" + flushes + ")" : "cutDuringFlush(" + (flushes + 1) + ", " + seed + ")";
        }
        return seed == null ? "cutPower()" : "cutPower(" + seed + ")";
    }

    @Override
    public String toString() {
        String when = !armed ? " after " + flushes + " flushes"
                : seed == null ? " at flush " + flushes + " (armed)" : " during flush " + (flushes + 1) + " (armed)";
        return mode() + (seed == null ? "" : " seed " + seed) + when + ": " + unflushedBytes
                + " bytes unflushed, " + keptBytes + " kept, " + (unflushedBytes - keptBytes) + " discarded"
                + (lost == null || lost.isEmpty() ? "" : "; " + lost);
    }
}

package io.flushcheck.powercut;

import org.apiguardian.api.API;

/**
 * One power cut of a {@link SimulatedDisk}.
 *
 * @param seed           the seed of a {@code SUBSET} cut ({@link SimulatedDisk#cutPower(long)}); null for a
 *                       {@code FLUSHED} cut ({@link SimulatedDisk#cutPower()})
 * @param flushes        flushes the drive had completed before the cut
 * @param unflushedBytes bytes written since the last flush, which the cut could lose
 * @param keptBytes      of those, the bytes the cut kept (always 0 for {@code FLUSHED})
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record PowerCut(Long seed, long flushes, long unflushedBytes, long keptBytes) {

    /** {@code FLUSHED} or {@code SUBSET}. */
    public String mode() {
        return seed == null ? "FLUSHED" : "SUBSET";
    }

    /** The call that cuts the same way again: {@code cutPower()} or {@code cutPower(7)}. */
    public String reproducedBy() {
        return seed == null ? "cutPower()" : "cutPower(" + seed + ")";
    }

    @Override
    public String toString() {
        return mode() + (seed == null ? "" : " seed " + seed) + " after " + flushes + " flushes: " + unflushedBytes
                + " bytes unflushed, " + keptBytes + " kept, " + (unflushedBytes - keptBytes) + " discarded";
    }
}

package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.model.ReadFaults;
import io.flushcheck.powercut.internal.model.WriteFaults;
import io.flushcheck.powercut.internal.model.WriteLies;
import io.flushcheck.powercut.internal.model.SwitchedModel;
import java.nio.ByteBuffer;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A drive's planned faults, the part of {@link SectorStore} that arms and counts them: writes that fail, are lost or
 * land elsewhere, reads that fail, and data at rest that changes, each range checked to be the drive's before it is
 * armed. The store asks, under its lock (this object's), what a write or a read meets, and carries out the rest.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public abstract class FaultedDrive extends SwitchedModel {

    /** Where a write's bytes go: the store's own write into its cache. */
    @FunctionalInterface
    interface Apply {
        void write(long offset, ByteBuffer data);
    }

    /** A change to byte {@code at} of a sector's bytes. */
    @FunctionalInterface
    interface ByteChange {
        void apply(byte[] sector, int at);
    }

    private final long size;
    private final WriteFaults writeFaults = new WriteFaults();
    private final ReadFaults readFaults = new ReadFaults();
    private final WriteLies writeLies = new WriteLies();

    FaultedDrive(long size) {
        this.size = size;
    }

    /** True while the drive records a workload ({@link SectorStore#record}): its data at rest must not change then. */
    abstract boolean recording();

    /**
     * Changes bytes {@code lo} (inclusive) to {@code hi} (exclusive) of {@code sector} as the drive reads them now and
     * as they are durable, each by {@code change}.
     */
    abstract void changeAtRest(long sector, int lo, int hi, ByteChange change);

    /** The errno a write of {@code length} bytes at {@code offset} fails with now, or 0; counts it. */
    int writeFails(long offset, long length) {
        return writeFaults.failsNow(0, offset, length);
    }

    /** The errno a read of {@code length} bytes at {@code offset} fails with now, or 0; counts it. */
    int readFails(long offset, long length) {
        return readFaults.failsNow(0, offset, length);
    }

    /**
     * A write reaches {@code offset} to {@code end}: the bad sectors it touches read again, each whole, as dm-dust
     * clears a block any write reaches.
     */
    void written(long offset, long end) {
        readFaults.rewritten(0, offset / SectorStore.SECTOR * SectorStore.SECTOR,
                (end + SectorStore.SECTOR - 1) / SectorStore.SECTOR * SectorStore.SECTOR);
    }

    /**
     * Carries out a write of {@code data} at {@code offset} through {@code apply}, as the lies it meets say: its bytes
     * outside their ranges are written, those inside are not, or are written at the lie's target (the part of it on
     * the drive).
     */
    void writeMeetingLies(long offset, ByteBuffer data, Apply apply) {
        List<WriteLies.Lie> lies = writeLies.meet(0, offset, data.remaining());
        if (lies.isEmpty()) {
            apply.write(offset, data);
            return;
        }
        int at = data.position();
        long done = offset;
        for (WriteLies.Lie lie : lies) {
            ByteBuffer before = data.duplicate().position(at + (int) (done - offset)).limit(at + (int) (lie.from() - offset));
            if (before.hasRemaining()) {
                apply.write(done, before);
            }
            if (!lie.lost() && lie.targetFrom() < size) {
                ByteBuffer inside = data.duplicate().position(at + (int) (lie.from() - offset))
                        .limit(at + (int) (Math.min(lie.to(), lie.from() + size - lie.targetFrom()) - offset));
                apply.write(lie.targetFrom(), inside);
            }
            done = lie.to();
        }
        ByteBuffer after = data.duplicate().position(at + (int) (done - offset));
        if (after.hasRemaining()) {
            apply.write(done, after);
        }
        data.position(data.limit());
    }

    @Override
    public final synchronized void failWrites(long unit, long from, long length, boolean persistent, int errno) {
        requireRange(unit, from, length);
        writeFaults.fail(unit, from, length, persistent, errno);
    }

    @Override
    public final synchronized long failedWrites() {
        return writeFaults.failed();
    }

    @Override
    public final synchronized void loseWrites(long unit, long from, long length, boolean persistent) {
        requireRange(unit, from, length);
        writeLies.lose(unit, from, length, persistent);
    }

    @Override
    public final synchronized void misdirectWrites(long unit, long from, long length, boolean persistent,
                                                long targetUnit, long targetFrom) {
        requireRange(unit, from, length);
        requireRange(targetUnit, targetFrom, length);
        writeLies.misdirect(unit, from, length, persistent, targetUnit, targetFrom);
    }

    @Override
    public final synchronized long lostWrites() {
        return writeLies.lost();
    }

    @Override
    public final synchronized long misdirectedWrites() {
        return writeLies.misdirected();
    }

    @Override
    public final synchronized void failReads(long unit, long from, long length, boolean persistent, int errno) {
        requireRange(unit, from, length);
        readFaults.fail(unit, from, length, persistent, errno);
    }

    @Override
    public final synchronized long failedReads() {
        return readFaults.failed();
    }

    /** Flips bit {@code bit} of byte {@code offset} where it is durable and where it reads now (bit rot). */
    @Override
    public final synchronized void flipBit(long unit, long offset, int bit) {
        if (bit < 0 || bit > 7) {
            throw new IllegalArgumentException("a byte has bits 0 to 7, not " + bit);
        }
        requireAtRest(unit, offset, 1);
        changeAtRest(offset, 1, (bytes, at) -> bytes[at] ^= (byte) (1 << bit));
    }

    /** Zeros bytes of the drive where they are durable and where they read now. */
    @Override
    public final synchronized void zero(long unit, long from, long length) {
        requireAtRest(unit, from, length);
        changeAtRest(from, length, (bytes, at) -> bytes[at] = 0);
    }

    private void changeAtRest(long from, long length, ByteChange change) {
        long end = from + length;
        for (long s = from / SectorStore.SECTOR; s * SectorStore.SECTOR < end; s++) {
            int lo = (int) Math.max(0, from - s * SectorStore.SECTOR);
            int hi = (int) Math.min(SectorStore.SECTOR, end - s * SectorStore.SECTOR);
            changeAtRest(s, lo, hi, change);
        }
    }

    /**
     * Refuses a range that is not the drive's: another unit, or bytes past its end (compared without adding, so that a
     * length near {@link Long#MAX_VALUE} cannot wrap past the check).
     */
    private void requireRange(long unit, long from, long length) {
        if (unit != 0 || from < 0 || length <= 0 || from > size || length > size - from) {
            throw new IllegalArgumentException("the drive has one unit, 0, of " + size + " bytes, not " + unit + " with "
                    + from + "+" + length);
        }
    }

    private void requireAtRest(long unit, long from, long length) {
        requireRange(unit, from, length);
        if (power.frozen()) {
            throw new IllegalStateException("the power is cut: what survived is the saved image, not this drive");
        }
        if (recording()) {
            throw new IllegalStateException("the drive is recording a workload, whose crash states would not hold the"
                    + " change: change data at rest before or after the recording");
        }
    }
}

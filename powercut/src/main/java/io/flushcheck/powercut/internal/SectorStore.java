package io.flushcheck.powercut.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apiguardian.api.API;

/**
 * A drive with a volatile write cache, in memory, by 4 KiB sectors: what was written since the last
 * flush sits in the cache ({@link #unflushedBytes()}), a flush makes it durable, and a power cut keeps
 * the durable sectors and, in {@link CutMode#SUBSET}, any subset of the cached ones (a drive may have
 * written any of them, in any order). A drive writes atomically only in its own unit: with an atomic
 * unit under 4 KiB ({@link #SectorStore(long, int)}), a cut keeps each unit of a cached sector on its own,
 * so a 4 KiB write may survive in part, torn. After a cut the drive is frozen: it reads what survived and
 * discards writes. Sectors never written read as zeros and take no memory.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SectorStore implements PowerLossModel {

    /** The unit a drive persists whole: a write of one sector is never torn in this model. */
    public static final int SECTOR = 4096;

    private static final byte[] ZEROS = new byte[SECTOR];

    private final long size;
    private final int atomicUnit;
    private final Map<Long, byte[]> durable = new HashMap<>();
    private Map<Long, byte[]> cache = new LinkedHashMap<>();
    private long flushes;
    private boolean frozen;
    private long cutAtFlush = -1;
    private Runnable atCut;
    private Runnable onFreeze = () -> { };
    private long cutDuringFlush = -1;
    private long duringSeed;
    private long[] duringCut;
    private long discardedAfterCut;
    private final FlushFaults faults = new FlushFaults();
    private final WriteFaults writeFaults = new WriteFaults();

    public SectorStore(long size) {
        this(size, SECTOR);
    }

    /**
     * A drive of {@code size} bytes that writes {@code atomicUnit} bytes atomically: 4096 (a write of one
     * sector is never torn), or 512, 1024, 2048 (a cut may keep part of a sector).
     */
    public SectorStore(long size, int atomicUnit) {
        this(size, atomicUnit, Map.of());
    }

    /**
     * As {@link #SectorStore(long, int)}, with {@code image} ({@link #image()} of another drive of the
     * same size) durable from the start: a filesystem made once serves every drive made from it, the
     * sectors shared until one is written.
     */
    public SectorStore(long size, int atomicUnit, Map<Long, byte[]> image) {
        if (size <= 0 || size % SECTOR != 0) {
            throw new IllegalArgumentException("a disk is a positive whole number of 4 KiB sectors, not " + size + " bytes");
        }
        if (!validAtomicUnit(atomicUnit)) {
            throw new IllegalArgumentException("a drive writes 512, 1024, 2048 or 4096 bytes atomically, not " + atomicUnit);
        }
        this.size = size;
        this.atomicUnit = atomicUnit;
        for (Long sector : image.keySet()) {
            check(sector * SECTOR, SECTOR);
        }
        durable.putAll(image);
    }

    /**
     * What the drive reads now, cache included, as sectors (zeros left out: they read as zeros anyway),
     * for {@link #SectorStore(long, int, Map)}. The arrays are shared, not copied: a durable sector's
     * array is never written again (a write to its sector copies it into the cache first), and the
     * cache's are copied here because they are written in place.
     */
    public synchronized Map<Long, byte[]> image() {
        Map<Long, byte[]> image = new HashMap<>();
        durable.forEach((sector, bytes) -> {
            if (!Arrays.equals(bytes, ZEROS)) {
                image.put(sector, bytes);
            }
        });
        cache.forEach((sector, bytes) -> {
            if (Arrays.equals(bytes, ZEROS)) {
                image.remove(sector);
            } else {
                image.put(sector, bytes.clone());
            }
        });
        return Map.copyOf(image);
    }

    /** 512, 1024, 2048 or 4096: the units a drive may write atomically, in this model. */
    public static boolean validAtomicUnit(int bytes) {
        return bytes >= 512 && bytes <= SECTOR && Integer.bitCount(bytes) == 1;
    }

    public int atomicUnit() {
        return atomicUnit;
    }

    public long size() {
        return size;
    }

    /** Writes {@code length} bytes of {@code data} at {@code offset}; after a cut, discards them. */
    public void write(long offset, byte[] data, int length) {
        write(offset, ByteBuffer.wrap(data, 0, length));
    }

    /**
     * Writes the bytes remaining in {@code data} at {@code offset}, consuming them; after a cut, discards
     * them. The FUSE server passes its request buffer itself, so no copy is made on the way.
     */
    public void write(long offset, ByteBuffer data) {
        writeResult(offset, data);
    }

    /**
     * As {@link #write(long, ByteBuffer)}: 0 when written, else the errno of a planned write fault
     * ({@link #failWrites}), and nothing of it is written (the data is consumed all the same).
     */
    public synchronized int writeResult(long offset, ByteBuffer data) {
        int length = data.remaining();
        check(offset, length);
        if (!frozen) {
            int failure = writeFaults.failsNow(0, offset, length);
            if (failure != 0) {
                data.position(data.limit());
                return failure;
            }
        }
        if (frozen) {
            discardedAfterCut += length;
            data.position(data.limit());
            return 0;
        }
        int done = 0;
        while (done < length) {
            long pos = offset + done;
            long sector = pos / SECTOR;
            int within = (int) (pos % SECTOR);
            int n = Math.min(SECTOR - within, length - done);
            // Re-inserted, so the cache keeps the order in which sectors were last written.
            byte[] block = cache.remove(sector);
            if (block == null) {
                byte[] old = durable.get(sector);
                block = old == null || n == SECTOR ? new byte[SECTOR] : old.clone();
            }
            data.get(block, within, n);
            cache.put(sector, block);
            done += n;
        }
        return 0;
    }

    /** Reads {@code length} bytes at {@code offset} into {@code out}: the cache over the durable sectors. */
    public void read(long offset, byte[] out, int length) {
        read(offset, ByteBuffer.wrap(out, 0, length));
    }

    /** Fills the space remaining in {@code out} with the bytes at {@code offset}: the cache over the durable sectors. */
    public synchronized void read(long offset, ByteBuffer out) {
        int length = out.remaining();
        check(offset, length);
        int done = 0;
        while (done < length) {
            long pos = offset + done;
            long sector = pos / SECTOR;
            int within = (int) (pos % SECTOR);
            int n = Math.min(SECTOR - within, length - done);
            byte[] block = cache.get(sector);
            if (block == null) {
                block = durable.get(sector);
            }
            if (block == null) {
                out.put(ZEROS, 0, n);
            } else {
                out.put(block, within, n);
            }
            done += n;
        }
    }

    /**
     * A completed flush: everything written before it is durable. After a cut, nothing happens.
     *
     * @return false when the flush did not happen because the power went while the workload ran (an armed
     *     cut): its sync must fail, or the program would acknowledge what no longer reaches the drive. After
     *     a cut made by {@link #cut}, the workload is over and its last flushes (closing, unmounting) pass.
     */
    public boolean flush() {
        return flushResult() == 0;
    }

    /**
     * As {@link #flush()}: 0 when the flush completed, else the errno the drive fails it with (EIO when the
     * power went at it, the planned one for a failing flush, {@link #failFlushesAfter}).
     */
    public synchronized int flushResult() {
        if (frozen) {
            return armedCutHappened() ? FileTree.Errno.EIO : 0;
        }
        int failure = faults.failsNow(flushes);
        if (failure != 0) {
            return failure;
        }
        if (flushes + 1 == cutDuringFlush) {
            duringCut = freeze(CutMode.SUBSET, duringSeed);
            return FileTree.Errno.EIO;
        }
        durable.putAll(cache);
        // A new map, not clear(): clear() fills the whole table, which keeps the size of the largest cache
        // ever held (mkfs's thousands of sectors), and a drive flushes a few sectors thousands of times.
        cache = new LinkedHashMap<>();
        flushes++;
        if (flushes == cutAtFlush) {
            frozen = true;
            if (atCut != null) {
                // Before the flush is reported done: whatever waits for it never learns that it completed.
                atCut.run();
            }
            onFreeze.run();
        }
        return 0;
    }

    /**
     * Runs {@code action} at the moment the power goes, however it goes (a cut, or an armed flush), before
     * a flush that the cut interrupts returns.
     */
    @Override
    public synchronized void failFlushesAfter(long k, boolean persistent, int errno) {
        faults.failAfter(k, persistent, errno);
    }

    @Override
    public synchronized long failedFlushes() {
        return faults.failed();
    }

    @Override
    public synchronized void failWrites(long unit, long from, long length, boolean persistent, int errno) {
        if (unit != 0 || from + length > size) {
            throw new IllegalArgumentException("the drive has one unit, 0, of " + size + " bytes, not " + unit + " with "
                    + from + "+" + length);
        }
        writeFaults.fail(unit, from, length, persistent, errno);
    }

    @Override
    public synchronized long failedWrites() {
        return writeFaults.failed();
    }

    @Override
    public synchronized void whenFrozen(Runnable action) {
        onFreeze = action;
    }

    /**
     * Cuts the power the moment the {@code k}-th flush completes (counted from the start): what it made
     * durable survives, everything written after it is discarded, and later flushes fail.
     */
    public synchronized void cutAtFlush(long k) {
        cutAtFlush(k, null);
    }

    /**
     * As {@link #cutAtFlush(long)}, and runs {@code atCut} at the moment of the cut, before the flush that
     * triggers it returns.
     */
    @Override
    public synchronized void cutAtFlush(long k, Runnable atCut) {
        if (frozen) {
            throw new IllegalStateException("the power is already cut");
        }
        if (k <= flushes) {
            throw new IllegalArgumentException("flush " + k + " has already happened (" + flushes + " so far)");
        }
        cutAtFlush = k;
        this.atCut = atCut;
        cutDuringFlush = -1;
    }

    /**
     * Cuts the power the moment the {@code k}-th flush (counted from the start) arrives, before the drive
     * carries it out: what flush {@code k - 1} made durable survives, with a subset of the sectors written
     * since drawn from {@code seed} (the drive was writing its cache out when the power went), and that
     * flush fails.
     */
    @Override
    public synchronized void cutDuringFlush(long k, long seed) {
        if (frozen) {
            throw new IllegalStateException("the power is already cut");
        }
        if (k <= flushes) {
            throw new IllegalArgumentException("flush " + k + " has already happened (" + flushes + " so far)");
        }
        cutDuringFlush = k;
        duringSeed = seed;
        cutAtFlush = -1;
    }

    /** True when the power went at an armed flush ({@link #cutAtFlush}, {@link #cutDuringFlush}). */
    @Override
    public synchronized boolean armedCutHappened() {
        return frozen && (duringCut != null || cutAtFlush > 0 && flushes == cutAtFlush);
    }

    /** Bytes written after a cut, which the frozen drive discarded. */
    public synchronized long discardedAfterCut() {
        return discardedAfterCut;
    }

    /** Flushes completed so far. */
    @Override
    public synchronized long flushes() {
        return flushes;
    }

    /** Bytes written since the last flush: what a cut now could lose. */
    @Override
    public synchronized long unflushedBytes() {
        return (long) cache.size() * SECTOR;
    }

    @Override
    public synchronized boolean frozen() {
        return frozen;
    }

    /**
     * Cuts the power: what survives is the durable image and, in SUBSET mode, each cached sector with
     * probability one half, drawn from {@code seed} (with an atomic unit under a sector, each unit of it).
     * From now on writes are discarded.
     *
     * @return {kept, discarded} atomic units of the cache
     */
    @Override
    public synchronized long[] cut(CutMode mode, long seed) {
        if (duringCut != null) {
            return duringCut.clone(); // cut already, as the armed flush arrived
        }
        if (frozen && cutAtFlush > 0 && flushes == cutAtFlush) {
            return new long[] {0, 0}; // cut already, at the armed flush: nothing was cached since
        }
        if (frozen) {
            throw new IllegalStateException("the power is already cut");
        }
        return freeze(mode, seed);
    }

    private long[] freeze(CutMode mode, long seed) {
        frozen = true;
        onFreeze.run();
        long kept = 0;
        Random random = new Random(seed);
        List<Long> order = new ArrayList<>(cache.keySet());
        int units = SECTOR / atomicUnit;
        for (Long sector : order) {
            if (mode != CutMode.SUBSET) {
                continue;
            }
            if (units == 1) {
                if (random.nextBoolean()) {
                    durable.put(sector, cache.get(sector));
                    kept++;
                }
                continue;
            }
            byte[] written = cache.get(sector);
            byte[] old = durable.get(sector);
            byte[] survived = old == null ? new byte[SECTOR] : old.clone();
            int keptHere = 0;
            for (int u = 0; u < units; u++) {
                if (random.nextBoolean()) {
                    System.arraycopy(written, u * atomicUnit, survived, u * atomicUnit, atomicUnit);
                    keptHere++;
                }
            }
            if (keptHere > 0) {
                durable.put(sector, survived);
                kept += keptHere;
            }
        }
        long discarded = (long) cache.size() * units - kept;
        cache.clear();
        return new long[] {kept, discarded};
    }

    /** Writes the surviving image to {@code file}, sparse: sectors never written are holes. */
    @Override
    public synchronized void save(Path file) throws IOException {
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.setLength(0);
            out.setLength(size);
            for (Map.Entry<Long, byte[]> e : durable.entrySet()) {
                out.seek(e.getKey() * SECTOR);
                out.write(e.getValue());
            }
        }
    }

    private void check(long offset, int length) {
        if (offset < 0 || length < 0 || offset + length > size) {
            throw new IndexOutOfBoundsException("bytes " + offset + "+" + length + " outside a disk of " + size);
        }
    }
}

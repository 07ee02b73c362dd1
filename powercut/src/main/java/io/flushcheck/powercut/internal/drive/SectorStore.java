package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.model.PowerSwitch;
import io.flushcheck.powercut.internal.model.StoreFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apiguardian.api.API;

/**
 * A drive with a volatile write cache, by 4 KiB sectors: what was written since the last
 * flush sits in the cache ({@link #unflushedBytes()}), a flush makes it durable, and a power cut keeps
 * the durable sectors and, in {@link CutMode#SUBSET}, any subset of the cached ones (a drive may have
 * written any of them, in any order). A drive writes atomically only in its own unit: with an atomic
 * unit under 4 KiB ({@link #SectorStore(long, int)}), a cut keeps each unit of a cached sector on its own,
 * so a 4 KiB write may survive in part, torn. After a cut the drive is frozen: it reads what survived and
 * discards writes. Sectors never written read as zeros and take no memory.
 *
 * <p>The sectors live on the disk, not in the heap: what the drive reads now in one sparse
 * {@link StoreFile}, each sector at its own offset, and in another, for a cut, the durable contents of
 * each sector written over since the last flush (a sector written for the first time has none to keep:
 * it was zeros, or its template's). So a write is a copy and a flush only forgets; a cut puts back what
 * it does not keep. The heap holds only which sectors the file holds, which were written since the last
 * flush and in what order, and where their old contents are.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SectorStore extends FaultedDrive {

    /** The unit a drive persists whole: a write of one sector is never torn in this model. */
    public static final int SECTOR = 4096;


    private final long size;
    private final int atomicUnit;
    /** The sectors {@link #dataFile} holds (as the drive reads them now); the others are {@link #below}'s, or zeros. */
    private final BitSet held = new BitSet();
    private final StoreFile dataFile;
    /** What the drive started from (a template), or null: zeros. */
    private final SectorImage below;
    /** The sectors written since the last flush: the drive's cache. */
    private final BitSet cached = new BitSet();
    private long cachedCount;
    /** The cached sectors in the order written, repeats included: the last of each is its place. */
    private long[] order = new long[64];
    private int orderLength;
    /** Slot i of {@link #oldFile} holds what sector {@code oldSectors[i]} held at the last flush. */
    private final StoreFile oldFile;
    private int[] oldSectors = new int[64];
    private int oldCount;
    /**
     * The slot of each sector in {@link #oldSectors}, made when a change at rest or a cut first needs it and kept up
     * until the next flush; null until then, so that writes keep no index nothing asks for.
     */
    private Map<Integer, Integer> oldSlots;
    private final ByteBuffer one = ByteBuffer.allocate(SECTOR);
    /** What the cut during an armed flush kept and discarded; null until one happened. */
    private long[] duringCut;
    private long discardedAfterCut;
    /** The sectors the last cut put back whole, and those it kept only in part (torn). */
    private BitSet cutDiscarded = new BitSet();
    private BitSet cutTorn = new BitSet();
    /** Where the drive notes its writes and flushes while a workload is recorded ({@link #record}), or null. */
    private WriteLog recording;

    public SectorStore(long size) {
        this(size, SECTOR);
    }

    /**
     * A drive of {@code size} bytes that writes {@code atomicUnit} bytes atomically: 4096 (a write of one
     * sector is never torn), or 512, 1024, 2048 (a cut may keep part of a sector).
     */
    public SectorStore(long size, int atomicUnit) {
        this(size, atomicUnit, null);
    }

    /** As {@link #SectorStore(long, int, SectorImage, Path)}, its files in the JVM's temporary directory. */
    public SectorStore(long size, int atomicUnit, SectorImage image) {
        this(size, atomicUnit, image, StoreFile.defaultDir());
    }

    /**
     * As {@link #SectorStore(long, int)}, with {@code image} ({@link #image} of another drive of the same
     * size, or null) durable from the start: a filesystem made once serves every drive made from it, the
     * sectors shared until one is written. The drive's sectors are kept in files made in {@code dir}.
     */
    public SectorStore(long size, int atomicUnit, SectorImage image, Path dir) {
        super(size);
        if (size <= 0 || size % SECTOR != 0) {
            throw new IllegalArgumentException("a disk is a positive whole number of 4 KiB sectors, not " + size + " bytes");
        }
        if (!validAtomicUnit(atomicUnit)) {
            throw new IllegalArgumentException("a drive writes 512, 1024, 2048 or 4096 bytes atomically, not " + atomicUnit);
        }
        if (size / SECTOR > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a drive holds at most 8 TiB, not " + size + " bytes");
        }
        this.size = size;
        this.atomicUnit = atomicUnit;
        if (image != null) {
            long last = image.held().length() - 1;
            if (last >= 0) {
                check(last * SECTOR, SECTOR);
            }
        }
        this.below = image;
        this.dataFile = StoreFile.in(dir);
        this.oldFile = StoreFile.in(dir);
    }

    /** As {@link #image(Path)}, its file in the JVM's temporary directory. */
    public SectorImage image() {
        return image(StoreFile.defaultDir());
    }

    /**
     * What the drive reads now, cache included, as an image to start other drives from
     * ({@link #SectorStore(long, int, SectorImage, Path)}), its file made in {@code dir}: a copy, so this
     * drive writes on without changing it. Sectors of zeros are left out: they read as zeros anyway.
     */
    public synchronized SectorImage image(Path dir) {
        return SectorImage.copyOf(written(), this::read, dir);
    }

    /** The sectors that may hold bytes other than zeros: the file's and the template's. */
    private BitSet written() {
        BitSet all = (BitSet) held.clone();
        if (below != null) {
            all.or(below.held());
        }
        return all;
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
        if (!power.frozen()) {
            int failure = writeFails(offset, length);
            if (failure != 0) {
                data.position(data.limit());
                return failure;
            }
        }
        if (power.frozen()) {
            discardedAfterCut += length;
            data.position(data.limit());
            return 0;
        }
        if (length == 0) {
            return 0;
        }
        writeMeetingLies(offset, data, this::apply);
        return 0;
    }

    /** Writes {@code data} at {@code offset}, into the cache, as the drive does with the power on. */
    private void apply(long offset, ByteBuffer data) {
        int length = data.remaining();
        if (recording != null) {
            recording.write(offset, data);
        }
        long end = offset + length;
        written(offset, end);
        long first = offset / SECTOR;
        long last = (end - 1) / SECTOR;
        for (long s = first; s <= last; s++) {
            boolean whole = s * SECTOR >= offset && (s + 1) * SECTOR <= end;
            beforeWrite(s, whole);
        }
        dataFile.write(offset, data);
        for (long s = first; s <= last; s++) {
            markCached(s);
        }
    }

    /**
     * Readies {@code sector} for a write ({@code whole}: of all of it): the first write since the last flush
     * keeps what the sector held for a cut, and a sector the file does not hold yet gets what it reads now
     * (its template's bytes, or zeros), which a write of part of it keeps around its bytes.
     */
    private void beforeWrite(long sector, boolean whole) {
        int s = (int) sector;
        if (cached.get(s)) {
            return;
        }
        if (held.get(s)) {
            oldFile.write((long) newOldSlot(s) * SECTOR, dataFile.bytes(sector * SECTOR, SECTOR));
            return;
        }
        if (!whole) {
            one.clear();
            readFresh(sector, one);
            dataFile.write(sector * SECTOR, one.flip());
        }
        held.set(s);
    }

    /** A new slot of {@link #oldFile} for what {@code sector} holds at the last flush. */
    private int newOldSlot(int sector) {
        if (oldCount == oldSectors.length) {
            oldSectors = Arrays.copyOf(oldSectors, oldCount * 2);
        }
        oldSectors[oldCount] = sector;
        if (oldSlots != null) {
            oldSlots.put(sector, oldCount);
        }
        return oldCount++;
    }

    /** The slot of each sector in {@link #oldSectors}, by sector. */
    private Map<Integer, Integer> oldSlots() {
        if (oldSlots == null) {
            oldSlots = new HashMap<>();
            for (int i = 0; i < oldCount; i++) {
                oldSlots.put(oldSectors[i], i);
            }
        }
        return oldSlots;
    }

    /** What {@code sector}, not held, reads: its template's bytes, or zeros. */
    private void readFresh(long sector, ByteBuffer out) {
        if (below != null && below.holds(sector)) {
            below.read(sector * SECTOR, out);
        } else {
            StoreFile.zeros(out);
        }
    }

    private void markCached(long sector) {
        if (!cached.get((int) sector)) {
            cached.set((int) sector);
            cachedCount++;
        }
        if (orderLength == order.length) {
            if (orderLength > 2 * cachedCount + 1024) {
                long[] unique = lastWriteOrder();
                order = Arrays.copyOf(unique, Math.max(64, unique.length * 2));
                orderLength = unique.length;
            } else {
                order = Arrays.copyOf(order, order.length * 2);
            }
        }
        order[orderLength++] = sector;
    }

    /** The cached sectors, each once, in the order in which they were last written. */
    private long[] lastWriteOrder() {
        long[] unique = new long[(int) cachedCount];
        BitSet seen = new BitSet();
        int n = unique.length;
        for (int i = orderLength - 1; i >= 0; i--) {
            int s = (int) order[i];
            if (!seen.get(s)) {
                seen.set(s);
                unique[--n] = s;
            }
        }
        return unique;
    }

    /** Reads {@code length} bytes at {@code offset} into {@code out}: the cache over the durable sectors. */
    public void read(long offset, byte[] out, int length) {
        read(offset, ByteBuffer.wrap(out, 0, length));
    }

    /** Fills the space remaining in {@code out} with the bytes at {@code offset}: the cache over the durable sectors. */
    public synchronized void read(long offset, ByteBuffer out) {
        check(offset, out.remaining());
        readNow(offset, out);
    }

    /**
     * As {@link #read(long, ByteBuffer)}: 0 when read, else the errno of a planned read fault ({@link #failReads})
     * that the read touches, and {@code out} is left as it was.
     */
    public synchronized int readResult(long offset, ByteBuffer out) {
        check(offset, out.remaining());
        if (!power.frozen()) {
            int failure = readFails(offset, out.remaining());
            if (failure != 0) {
                return failure;
            }
        }
        readNow(offset, out);
        return 0;
    }

    private static final int ZERO = 0;
    private static final int BELOW = 1;
    private static final int HELD = 2;

    /** Where {@code sector} is read from: the file, the image below, or zeros. */
    private int source(long sector) {
        if (held.get((int) sector)) {
            return HELD;
        }
        return below != null && below.holds(sector) ? BELOW : ZERO;
    }

    /** Fills {@code out} from {@code offset}, each run of sectors read from the same place at once. */
    private void readNow(long offset, ByteBuffer out) {
        int limit = out.limit();
        long pos = offset;
        while (out.hasRemaining()) {
            long sector = pos / SECTOR;
            int from = source(sector);
            long runEnd = (sector + 1) * SECTOR;
            while (runEnd - pos < out.remaining() && source(runEnd / SECTOR) == from) {
                runEnd += SECTOR;
            }
            int n = (int) Math.min(runEnd - pos, out.remaining());
            out.limit(out.position() + n);
            switch (from) {
                case HELD -> dataFile.read(pos, out);
                case BELOW -> below.read(pos, out);
                default -> StoreFile.zeros(out);
            }
            out.limit(limit);
            pos += n;
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
        int refused = power.arrive(seed -> duringCut = freeze(CutMode.SUBSET, seed));
        if (refused != PowerSwitch.CARRY_OUT) {
            return refused;
        }
        clearCache(); // what the file holds is durable now: the old contents are forgotten
        power.completed(k -> {
            if (recording != null) {
                recording.flush(k);
            }
        });
        return 0;
    }

    @Override
    boolean recording() {
        return recording != null;
    }

    /**
     * A sector written since the last flush keeps its old contents for a cut, and they change too, so a cut does not
     * undo what is not a write.
     */
    @Override
    void changeAtRest(long s, int lo, int hi, ByteChange change) {
        ByteBuffer sector = ByteBuffer.allocate(SECTOR);
        readNow(s * SECTOR, sector);
        for (int i = lo; i < hi; i++) {
            change.apply(sector.array(), i);
        }
        dataFile.write(s * SECTOR, sector.flip());
        if (!cached.get((int) s)) {
            held.set((int) s); // durable as it reads: not written since the last flush
            return;
        }
        // An index, not a scan: a range changed at rest visits each of its sectors, each of which may add a slot.
        Integer old = oldSlots().get((int) s);
        int slot;
        sector.clear();
        if (old != null) {
            slot = old;
            oldFile.read((long) slot * SECTOR, sector);
        } else {
            readFresh(s, sector); // first written since the last flush: durable as it was before, changed now
            slot = newOldSlot((int) s);
        }
        for (int i = lo; i < hi; i++) {
            change.apply(sector.array(), i);
        }
        oldFile.write((long) slot * SECTOR, sector.flip());
    }

    /**
     * Cuts the power the moment the {@code k}-th flush completes (counted from the start): what it made
     * durable survives, everything written after it is discarded, and later flushes fail.
     */
    public synchronized void cutAtFlush(long k) {
        cutAtFlush(k, null);
    }

    /** Bytes written after a cut, which the frozen drive discarded. */
    public synchronized long discardedAfterCut() {
        return discardedAfterCut;
    }

    /** Bytes written since the last flush: what a cut now could lose. */
    @Override
    public synchronized long unflushedBytes() {
        return cachedCount * SECTOR;
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
        if (power.cutAtArmedFlush()) {
            return new long[] {0, 0}; // cut already, at the armed flush: nothing was cached since
        }
        power.requirePower();
        return freeze(mode, seed);
    }

    private long[] freeze(CutMode mode, long seed) {
        power.freeze();
        long kept = 0;
        Random random = new Random(seed);
        long[] order = lastWriteOrder();
        Map<Integer, Integer> oldSlots = oldSlots();
        int units = SECTOR / atomicUnit;
        ByteBuffer written = ByteBuffer.allocate(SECTOR);
        ByteBuffer survived = ByteBuffer.allocate(SECTOR);
        cutDiscarded = new BitSet();
        cutTorn = new BitSet();
        for (long sector : order) {
            Integer slot = oldSlots.get((int) sector);
            if (mode != CutMode.SUBSET) {
                putBack(sector, slot);
                cutDiscarded.set((int) sector);
                continue;
            }
            if (units == 1) {
                if (random.nextBoolean()) {
                    kept++;
                } else {
                    putBack(sector, slot);
                    cutDiscarded.set((int) sector);
                }
                continue;
            }
            written.clear();
            dataFile.read(sector * SECTOR, written);
            survived.clear();
            if (slot != null) {
                oldFile.read((long) slot * SECTOR, survived);
            } else {
                readFresh(sector, survived);
            }
            int keptHere = 0;
            for (int u = 0; u < units; u++) {
                if (random.nextBoolean()) {
                    System.arraycopy(written.array(), u * atomicUnit, survived.array(), u * atomicUnit, atomicUnit);
                    keptHere++;
                }
            }
            if (keptHere > 0) {
                dataFile.write(sector * SECTOR, survived.clear());
                kept += keptHere;
                if (keptHere < units) {
                    cutTorn.set((int) sector);
                }
            } else {
                putBack(sector, slot);
                cutDiscarded.set((int) sector);
            }
        }
        long discarded = cachedCount * units - kept;
        clearCache();
        return new long[] {kept, discarded};
    }

    /** The most ranges {@link #discarded()} lists; past them, one entry gives the bytes left unlisted. */
    public static final int LISTED_RANGES = 10_000;

    /**
     * What the last cut discarded, a run of sectors an entry, first first: {@code discarded OFFSET LENGTH}
     * for sectors it put back whole, {@code torn OFFSET LENGTH} for sectors it kept only in part; in bytes of
     * the drive. Sectors the file holds nothing of are the filesystem's to name ({@code FileExtents}).
     */
    @Override
    public synchronized List<String> discarded() {
        return CutRuns.list(cutDiscarded, cutTorn, LISTED_RANGES);
    }

    /** Undoes the writes to {@code sector} since the last flush: its old contents back from {@code slot}, or none. */
    private void putBack(long sector, Integer slot) {
        if (slot != null) {
            dataFile.write(sector * SECTOR, oldFile.bytes((long) slot * SECTOR, SECTOR));
        } else {
            held.clear((int) sector); // written for the first time: it reads as before, its template's or zeros
        }
    }

    private void clearCache() {
        for (int i = 0; i < orderLength; i++) {
            cached.clear((int) order[i]);
        }
        cachedCount = 0;
        oldCount = 0;
        oldSlots = null;
        if (oldSectors.length > 4096) {
            oldSectors = new int[64];
        }
        // A new array when the last was large: a drive flushes a few sectors thousands of times after mkfs.
        if (order.length > 4096) {
            order = new long[64];
        }
        orderLength = 0;
        // The old contents' file keeps its blocks: the next interval's land on them, mapped already.
    }

    /** Writes the surviving image to {@code file}, sparse: sectors never written are holes. */
    @Override
    public synchronized void save(Path file) throws IOException {
        SectorImage.save(written(), this::readNow, size, file);
    }

    /**
     * Starts recording: what the drive reads now is saved to {@code base} ({@link #save}), and from then on
     * every write it carries out and every flush it completes is appended to {@code log} ({@link WriteLog}),
     * until {@link #stopRecording}. Both at once, so no write falls between them. What is cached now counts
     * as durable in the base: a recording begins after a flush.
     */
    public synchronized void record(Path log, Path base) throws IOException {
        if (recording != null) {
            throw new IllegalStateException("the drive is recording already");
        }
        if (power.frozen()) {
            throw new IllegalStateException("the power is cut: nothing is written to record");
        }
        save(base);
        recording = WriteLog.create(log, power.flushes());
    }

    /** Ends the recording, its log complete on the disk; false when none was under way. */
    public synchronized boolean stopRecording() {
        if (recording == null) {
            return false;
        }
        WriteLog log = recording;
        recording = null;
        log.close();
        return true;
    }

    /** Frees the drive's files. */
    @Override
    public synchronized void close() {
        stopRecording();
        dataFile.close();
        oldFile.close();
    }

    private void check(long offset, int length) {
        if (offset < 0 || length < 0 || offset + length > size) {
            throw new IndexOutOfBoundsException("bytes " + offset + "+" + length + " outside a disk of " + size);
        }
    }
}

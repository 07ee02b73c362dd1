package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.model.StoreFile;
import io.flushcheck.powercut.internal.sys.OwnerOnly;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What a drive read at one moment, kept to start other drives from ({@link SectorStore#image}): its
 * sectors in a sparse {@link StoreFile} at their own offsets, and in the heap only which sectors it holds
 * (the others read as zeros). It never changes once made, so any number of drives read it at once.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SectorImage implements AutoCloseable {

    private final Source file;
    private final AutoCloseable closing;
    private final BitSet held;

    SectorImage(StoreFile file, BitSet held) {
        this(file::read, file::close, held);
    }

    private SectorImage(Source file, AutoCloseable closing, BitSet held) {
        this.file = file;
        this.closing = closing;
        this.held = held;
    }

    /**
     * The image file {@code image} as it is (a survivor's saved image, {@link SectorStore#save}), read where it lies
     * and never written, for a drive of {@code size} bytes to start from: its sectors holding data (not holes) are
     * held, the rest read as zeros, as do bytes past its end. Opened without following a link.
     */
    public static SectorImage of(Path image, long size) throws IOException {
        RegularFile in = RegularFile.open(image);
        try {
            BitSet held = new BitSet();
            long end = Math.min(in.size(), size);
            for (long at = in.nextData(0); at < end; at = in.nextData(at)) {
                long hole = Math.min(in.nextHole(at), end);
                held.set((int) (at / SectorStore.SECTOR), (int) ((hole + SectorStore.SECTOR - 1) / SectorStore.SECTOR));
                at = hole;
            }
            FileChannel channel = in.channel();
            return new SectorImage((pos, out) -> {
                try {
                    while (out.hasRemaining()) {
                        int n = channel.read(out, pos);
                        if (n < 0) {
                            StoreFile.zeros(out);
                        }
                        pos += Math.max(n, 0);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the image " + image, e);
                }
            }, in, held);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** Where a copy reads a drive's bytes at an offset from. */
    @FunctionalInterface
    interface Source {
        void read(long offset, ByteBuffer out);
    }

    /**
     * A copy of what {@code source} reads in {@code candidates}, its file made in {@code dir}; sectors of zeros are left
     * out: they read as zeros anyway.
     */
    static SectorImage copyOf(BitSet candidates, Source source, Path dir) {
        StoreFile file = StoreFile.in(dir);
        BitSet held = new BitSet();
        ByteBuffer one = ByteBuffer.allocate(SectorStore.SECTOR);
        byte[] zeros = new byte[SectorStore.SECTOR];
        for (int s = candidates.nextSetBit(0); s >= 0; s = candidates.nextSetBit(s + 1)) {
            one.clear();
            source.read((long) s * SectorStore.SECTOR, one);
            if (!Arrays.equals(one.array(), zeros)) {
                file.write((long) s * SectorStore.SECTOR, one.flip());
                held.set(s);
            }
        }
        return new SectorImage(file, held);
    }

    /**
     * Writes what {@code source} reads in {@code sectors} to {@code file}, made for its owner only (what a drive held is
     * the workload's data), an image of {@code size} bytes: sectors not written are holes.
     */
    static void save(BitSet sectors, Source source, long size, Path file) throws IOException {
        try (FileChannel channel = OwnerOnly.write(file)) {
            // Made here, not with the drive: a direct buffer is zeroed as it is made, and most drives never save.
            ByteBuffer scratch = ByteBuffer.allocateDirect(256 * SectorStore.SECTOR);
            for (int s = sectors.nextSetBit(0); s >= 0; ) {
                int end = Math.min(sectors.nextClearBit(s), s + scratch.capacity() / SectorStore.SECTOR);
                scratch.clear().limit((end - s) * SectorStore.SECTOR);
                source.read((long) s * SectorStore.SECTOR, scratch);
                scratch.flip();
                for (long at = (long) s * SectorStore.SECTOR; scratch.hasRemaining(); ) {
                    at += channel.write(scratch, at);
                }
                s = sectors.nextSetBit(end);
            }
            if (channel.size() < size) {
                channel.write(ByteBuffer.allocate(1), size - 1); // the image's length, its end a hole or a zero
            }
        }
    }

    /** True when the image holds {@code sector}; the others read as zeros. */
    boolean holds(long sector) {
        return held.get(Math.toIntExact(sector));
    }

    /** The sectors it holds. */
    BitSet held() {
        return (BitSet) held.clone();
    }

    /** The sectors it holds, in order. */
    public List<Long> sectors() {
        List<Long> out = new ArrayList<>();
        held.stream().forEach(s -> out.add((long) s));
        return out;
    }

    /** Fills the space remaining in {@code out} with the image's bytes at {@code pos}. */
    void read(long pos, ByteBuffer out) {
        file.read(pos, out);
    }

    /** Frees its file. */
    @Override
    public void close() {
        try {
            closing.close();
        } catch (Exception e) {
            // a file read only: closing it loses nothing
        }
    }
}

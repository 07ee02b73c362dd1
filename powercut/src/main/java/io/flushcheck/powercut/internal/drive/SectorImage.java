package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.model.StoreFile;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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

    private final StoreFile file;
    private final BitSet held;

    SectorImage(StoreFile file, BitSet held) {
        this.file = file;
        this.held = held;
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
        file.close();
    }
}

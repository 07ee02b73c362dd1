package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.StoreFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A version of a file's bytes, in a sparse file of the {@link FileStore} made on its first write; the
 * heap holds its size (past what the file holds, zeros).
 */
final class FileBytes {
    /** Where its bytes are; null when its size alone is kept. */
    private final FileStore store;
    private final String name;
    private long size;
    private boolean made;

    FileBytes(FileStore store, String name) {
        this.store = store;
        this.name = name;
    }

    long size() {
        return size;
    }

    /** Whether it keeps its size alone: its bytes are not kept, and read as zeros. */
    boolean sizesOnly() {
        return store == null;
    }

    /** As a write ending at {@code end} would set its size, its bytes left as they are. */
    void extend(long end) {
        size = Math.max(size, end);
    }

    void write(long offset, ByteBuffer src) {
        long end = offset + src.remaining();
        if (store == null) {
            src.position(src.limit());
            extend(end);
            return;
        }
        store.write(name, offset, src);
        made = true;
        size = Math.max(size, end);
    }

    void truncate(long newSize) {
        if (made && newSize < size) {
            store.truncate(name, newSize);
        }
        size = newSize;
    }

    int read(long offset, ByteBuffer out) {
        if (offset >= size) {
            return 0;
        }
        int n = (int) Math.min(out.remaining(), size - offset);
        int limit = out.limit();
        out.limit(out.position() + n);
        if (made) {
            store.read(name, offset, out);
        } else {
            StoreFile.zeros(out);
        }
        out.limit(limit);
        return n;
    }

    /** Copies its bytes into {@code out} from its start (not its size: what lies past them reads as zeros). */
    long copyTo(FileChannel out) throws IOException {
        return made ? store.copyTo(name, size, out) : 0;
    }
}

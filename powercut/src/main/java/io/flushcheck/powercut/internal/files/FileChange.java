package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.StoreFile;
import java.nio.ByteBuffer;

/** A change to a file not yet synced: {@code length} bytes written at an offset (kept at {@code logPos} of the change log), or a new size. */
record FileChange(long offset, long logPos, int length, long newSize, long order, String path) {
    static FileChange write(long offset, long logPos, int length, long order, String path) {
        return new FileChange(offset, logPos, length, -1, order, path);
    }

    static FileChange truncate(long size, long order, String path) {
        return new FileChange(0, -1, 0, size, order, path);
    }

    boolean isWrite() {
        return newSize < 0;
    }

    void applyTo(FileBytes b, StoreFile log) {
        if (!isWrite()) {
            b.truncate(newSize);
        } else if (b.sizesOnly()) {
            b.extend(offset + length);
        } else {
            b.write(offset, bytesIn(log));
        }
    }

    ByteBuffer bytesIn(StoreFile log) {
        return log.bytes(logPos, length);
    }
}

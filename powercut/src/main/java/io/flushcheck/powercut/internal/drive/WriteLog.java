package io.flushcheck.powercut.internal.drive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apiguardian.api.API;

/**
 * The writes and flushes a drive carried out, in order, appended to a file (a recording of a workload,
 * read back by {@code Recording}): a record {@code 'S' FLUSHES} to begin (the flushes completed before
 * it), then {@code 'W' OFFSET LENGTH BYTES} for each write and {@code 'F' FLUSHES} for each completed
 * flush, big-endian, a long an offset or count and an int a length. The bytes go to the file, not the
 * heap: a workload may write more than the heap holds. Not thread-safe: its drive locks.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WriteLog implements AutoCloseable {

    public static final byte START = 'S';
    public static final byte WRITE = 'W';
    public static final byte FLUSH = 'F';

    private final FileChannel out;
    private final ByteBuffer buffer = ByteBuffer.allocate(1 << 20);

    private WriteLog(FileChannel out) {
        this.out = out;
    }

    /** A new log in {@code file} (replaced if there), beginning after {@code flushes} completed flushes. */
    static WriteLog create(Path file, long flushes) throws IOException {
        WriteLog log = new WriteLog(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING));
        log.room(9);
        log.buffer.put(START).putLong(flushes);
        return log;
    }

    /** Notes a write of the bytes remaining in {@code data} at {@code offset}; {@code data} is left as it was. */
    void write(long offset, ByteBuffer data) {
        room(13);
        buffer.put(WRITE).putLong(offset).putInt(data.remaining());
        ByteBuffer bytes = data.duplicate();
        while (bytes.hasRemaining()) {
            room(1);
            int n = Math.min(bytes.remaining(), buffer.remaining());
            buffer.put(buffer.position(), bytes, bytes.position(), n);
            buffer.position(buffer.position() + n);
            bytes.position(bytes.position() + n);
        }
    }

    /** Notes a completed flush, the {@code flushes}-th. */
    void flush(long flushes) {
        room(9);
        buffer.put(FLUSH).putLong(flushes);
    }

    private void room(int bytes) {
        if (buffer.remaining() < bytes) {
            drain();
        }
    }

    private void drain() {
        buffer.flip();
        try {
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the drive's recording", e);
        }
        buffer.clear();
    }

    /** Writes what is buffered and closes the file. */
    @Override
    public void close() {
        try {
            drain();
        } finally {
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close the drive's recording", e);
            }
        }
    }
}

package io.flushcheck.powercut.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apiguardian.api.API;

/**
 * A sparse file that holds a model's bytes on the disk instead of in the heap: made in a directory and
 * unlinked at once, so that its blocks go with the process however it ends and nothing of it is left
 * behind. Bytes never written read as zeros. A failure to read or write it is the server's own failure, not
 * the simulated drive's, so it is thrown ({@link UncheckedIOException}), never answered as an I/O error.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StoreFile implements AutoCloseable {

    private static final byte[] ZEROS = new byte[64 * 1024];

    private final FileChannel channel;

    private StoreFile(FileChannel channel) {
        this.channel = channel;
    }

    /** A new, empty store file in {@code dir} (a directory on the disk, e.g. the simulated disk's work directory). */
    public static StoreFile in(Path dir) {
        try {
            Path p = Files.createTempFile(dir, ".flushcheck-store-", "");
            FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Files.delete(p);
            return new StoreFile(ch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a store file in " + dir, e);
        }
    }

    /** Where a model keeps its bytes when it is given no directory: the JVM's temporary directory. */
    public static Path defaultDir() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** Fills the space remaining in {@code out} with the bytes at {@code pos}: zeros past the end. */
    public void read(long pos, ByteBuffer out) {
        try {
            while (out.hasRemaining()) {
                int n = channel.read(out, pos);
                if (n < 0) {
                    zeros(out);
                    return;
                }
                pos += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the store file", e);
        }
    }

    /** Fills the space remaining in {@code out} with zeros. */
    static void zeros(ByteBuffer out) {
        while (out.hasRemaining()) {
            out.put(ZEROS, 0, Math.min(ZEROS.length, out.remaining()));
        }
    }

    /** Writes the bytes remaining in {@code in} at {@code pos}, consuming them. */
    public void write(long pos, ByteBuffer in) {
        try {
            while (in.hasRemaining()) {
                pos += channel.write(in, pos);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the store file (is its disk full?)", e);
        }
    }

    /** Drops every byte from {@code size} on: they read as zeros again, and their blocks are freed. */
    public void truncate(long size) {
        try {
            channel.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate the store file", e);
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // unlinked already: its blocks are freed with the descriptor however the close went
        }
    }
}

package io.flushcheck.powercut.internal.model;

import com.sun.jna.Native;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * A sparse file that holds a model's bytes on the disk instead of in the heap: made in a directory and
 * unlinked at once, so that its blocks go with the process however it ends and nothing of it is left
 * behind. Bytes never written read as zeros. It is mapped into memory, {@value #CHUNK_MIB} MiB at a
 * time as it is used, so a read or a write is a copy, not a system call: the page cache holds what is
 * used, and the kernel writes it to the file when memory is short. Not thread-safe: its owner locks.
 *
 * <p>A failure to read or write it is the server's own failure, not the simulated drive's, so it is
 * thrown ({@link UncheckedIOException}, or the {@link InternalError} of a mapped page the disk below had
 * no room for), never answered as an I/O error.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StoreFile implements AutoCloseable {

    private static final int CHUNK_MIB = 64;
    private static final int CHUNK = CHUNK_MIB << 20;
    private static final byte[] ZEROS = new byte[64 * 1024];

    private final FileChannel channel;
    private MappedByteBuffer[] chunks = new MappedByteBuffer[0];
    private boolean closed;

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

    /** Fills the space remaining in {@code out} with the bytes at {@code pos}: zeros where none were written. */
    public void read(long pos, ByteBuffer out) {
        while (out.hasRemaining()) {
            int within = (int) (pos % CHUNK);
            int n = Math.min(out.remaining(), CHUNK - within);
            int index = (int) (pos / CHUNK);
            if (index >= chunks.length || chunks[index] == null) {
                int limit = out.limit();
                out.limit(out.position() + n);
                zeros(out);
                out.limit(limit);
            } else {
                out.put(out.position(), chunks[index], within, n);
                out.position(out.position() + n);
            }
            pos += n;
        }
    }

    /**
     * The {@code length} bytes at {@code pos}, to be read at once: a view of the mapping where they lie in one
     * chunk (no copy), else a copy. A view is valid until the next {@link #clear()} or {@link #close()}.
     */
    public ByteBuffer bytes(long pos, int length) {
        int index = (int) (pos / CHUNK);
        int within = (int) (pos % CHUNK);
        if (within + length <= CHUNK && index < chunks.length && chunks[index] != null) {
            return chunks[index].slice(within, length);
        }
        ByteBuffer b = ByteBuffer.allocate(length);
        read(pos, b);
        return b.flip();
    }

    /** Whether every byte remaining in {@code b} is zero; it is left as it is. */
    public static boolean isZeros(ByteBuffer b) {
        int i = b.position();
        for (; i + 8 <= b.limit(); i += 8) {
            if (b.getLong(i) != 0) {
                return false;
            }
        }
        for (; i < b.limit(); i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Fills the space remaining in {@code out} with zeros. */
    public static void zeros(ByteBuffer out) {
        while (out.hasRemaining()) {
            out.put(ZEROS, 0, Math.min(ZEROS.length, out.remaining()));
        }
    }

    /** Writes the bytes remaining in {@code in} at {@code pos}, consuming them. */
    public void write(long pos, ByteBuffer in) {
        while (in.hasRemaining()) {
            int within = (int) (pos % CHUNK);
            int n = Math.min(in.remaining(), CHUNK - within);
            chunk((int) (pos / CHUNK)).put(within, in, in.position(), n);
            in.position(in.position() + n);
            pos += n;
        }
    }

    private MappedByteBuffer chunk(int index) {
        if (closed) {
            throw new IllegalStateException("the store file is closed");
        }
        if (index >= chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(index + 1, chunks.length * 2));
        }
        if (chunks[index] == null) {
            try {
                // Mapping past the end makes the file that long, sparse: the blocks come as pages are written.
                chunks[index] = channel.map(FileChannel.MapMode.READ_WRITE, (long) index * CHUNK, CHUNK);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot map the store file", e);
            }
            // A fault in a shared mapping otherwise reads ahead as a sequential reader would, as far as the
            // disk's read_ahead_kb (8 MiB on some virtual disks): a write to one page of a fresh chunk would
            // make and zero thousands. Drives and files are written in no order.
            try {
                Libc.C.madvise(Native.getDirectBufferPointer(chunks[index]), CHUNK, Libc.MADV_RANDOM);
            } catch (LinkageError e) {
                // without JNA's native part the chunk reads ahead: slower, the same bytes
            }
        }
        return chunks[index];
    }

    /** Drops every byte: they read as zeros again, and their blocks are freed. */
    public void clear() {
        unmap();
        try {
            channel.truncate(0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate the store file", e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        unmap();
        try {
            channel.close();
        } catch (IOException e) {
            // unlinked already: its blocks are freed with the descriptor however the close went
        }
    }

    /**
     * Unmaps every chunk now, not when the collector finds them: a closed drive's file keeps its blocks on
     * the disk while any of it is mapped. Nothing may touch a chunk after this (its owner's lock sees to it).
     */
    private void unmap() {
        for (MappedByteBuffer b : chunks) {
            if (b != null) {
                Unmapper.unmap(b);
            }
        }
        chunks = new MappedByteBuffer[0];
    }

    /** sun.misc.Unsafe's invokeCleaner (module jdk.unsupported), when it is there; else the collector unmaps. */
    private static final class Unmapper {
        private static final Object UNSAFE;
        private static final Method INVOKE_CLEANER;

        static {
            Object unsafe = null;
            Method m = null;
            try {
                Class<?> c = Class.forName("sun.misc.Unsafe");
                Field f = c.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                unsafe = f.get(null);
                m = c.getMethod("invokeCleaner", ByteBuffer.class);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // left to the collector
            }
            UNSAFE = unsafe;
            INVOKE_CLEANER = m;
        }

        static void unmap(MappedByteBuffer b) {
            if (INVOKE_CLEANER == null) {
                return;
            }
            try {
                INVOKE_CLEANER.invoke(UNSAFE, b);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // left to the collector
            }
        }
    }
}

package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.StoreFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The file model's bytes on the disk, not in the heap: a directory of sparse files, one for each version
 * of a file the model keeps (what the kernel sees now, what is durable), made on their first write. Only a
 * few are open at a time, so a tree of any number of files needs no more descriptors than that. The
 * directory goes on {@link #close()}, or with the JVM; a server killed outright leaves it in the disk's work
 * directory, which the disk removes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileStore implements AutoCloseable {

    private static final int OPEN_FILES = 64;

    private final Path dir;
    private final Thread removal;
    private final Map<String, FileChannel> open = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, FileChannel> eldest) {
            if (size() > OPEN_FILES) {
                closeQuietly(eldest.getValue());
                return true;
            }
            return false;
        }
    };

    /** A new store in a directory of its own made in {@code parent}. */
    FileStore(Path parent) {
        try {
            this.dir = Files.createTempDirectory(parent, ".flushcheck-files-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the file model's store in " + parent, e);
        }
        this.removal = new Thread(this::removeDir, "flushcheck-file-store-removal");
        Runtime.getRuntime().addShutdownHook(removal);
    }

    /** Where its files are. */
    Path dir() {
        return dir;
    }

    /** Fills the space remaining in {@code out} with the bytes of {@code name} (a file written before) at {@code pos}: zeros past its end. */
    void read(String name, long pos, ByteBuffer out) {
        FileChannel ch = channel(name);
        try {
            while (out.hasRemaining()) {
                int n = ch.read(out, pos);
                if (n < 0) {
                    StoreFile.zeros(out);
                    return;
                }
                pos += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + dir.resolve(name), e);
        }
    }

    /** Writes the bytes remaining in {@code in} into {@code name} at {@code pos}, consuming them. */
    void write(String name, long pos, ByteBuffer in) {
        FileChannel ch = channel(name);
        try {
            while (in.hasRemaining()) {
                pos += ch.write(in, pos);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(name) + " (is its disk full?)", e);
        }
    }

    /** Drops the bytes of {@code name} (a file written before) from {@code size} on. */
    void truncate(String name, long size) {
        try {
            channel(name).truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate " + dir.resolve(name), e);
        }
    }

    /** Copies the first {@code length} bytes of {@code name} (a file written before; fewer when it holds fewer) into {@code out}. */
    void copyTo(String name, long length, FileChannel out) throws IOException {
        FileChannel ch = channel(name);
        long end = Math.min(length, ch.size());
        for (long pos = 0; pos < end; ) {
            long n = ch.transferTo(pos, end - pos, out);
            if (n <= 0) {
                throw new IOException("cannot copy " + dir.resolve(name));
            }
            pos += n;
        }
    }

    private FileChannel channel(String name) {
        FileChannel ch = open.get(name);
        if (ch == null) {
            try {
                ch = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open " + dir.resolve(name), e);
            }
            open.put(name, ch);
        }
        return ch;
    }

    /** Closes its files and removes them. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(removal);
        } catch (IllegalStateException e) {
            // the JVM is ending: the hook removes it
        }
        removeDir();
    }

    private synchronized void removeDir() {
        for (Iterator<FileChannel> i = open.values().iterator(); i.hasNext(); ) {
            closeQuietly(i.next());
            i.remove();
        }
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // its parent, the disk's work directory, goes with the disk
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // its bytes are written: a store file is never read after its disk's end
        }
    }
}

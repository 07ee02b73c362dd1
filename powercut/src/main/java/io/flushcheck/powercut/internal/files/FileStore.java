package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.StoreFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * The file model's bytes on the disk, not in the heap: a directory of sparse files, one for each version
 * of a file the model keeps (what the kernel sees now, what is durable), made on their first write. Only a
 * few are open at a time, so a tree of any number of files needs no more descriptors than that. A version
 * that fits in {@link #SLOT} bytes lives in a slot of one file they share until it grows past them, so that a
 * tree of many small files makes (and removes) few files of its own. The directory goes on {@link #close()},
 * or with the JVM; a server killed outright leaves it in the disk's work directory, which the disk removes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileStore implements AutoCloseable {

    private static final int OPEN_FILES = 64;
    /** The most bytes a version holds in a slot of the shared file; past them it has a file of its own. */
    static final int SLOT = 4096;
    private static final String SLOTS = "slots";

    /** Where a version lives in the shared file, and the end of what was written there: past it, zeros. */
    private static final class Slot {
        final long at;
        int high;

        Slot(long at) {
            this.at = at;
        }
    }

    private final Map<String, Slot> slotted = new HashMap<>();
    /** Slots given up by versions that outgrew them, to be handed out again. */
    private final ArrayDeque<Long> freeSlots = new ArrayDeque<>();
    private long slotsEnd;
    /** The versions with a file of their own. */
    private final Set<String> filed = new HashSet<>();

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
        Slot slot = slotted.get(name);
        if (slot != null) {
            if (pos < slot.high) {
                int limit = out.limit();
                out.limit(out.position() + (int) Math.min(out.remaining(), slot.high - pos));
                readFile(SLOTS, slot.at + pos, out);
                out.limit(limit);
            }
            StoreFile.zeros(out);
            return;
        }
        readFile(name, pos, out);
    }

    private void readFile(String name, long pos, ByteBuffer out) {
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
        long end = pos + in.remaining();
        Slot slot = slotted.get(name);
        if (slot == null && !filed.contains(name)) {
            if (end <= SLOT) {
                slot = new Slot(freeSlots.isEmpty() ? slotsEnd : freeSlots.pop());
                slotsEnd = Math.max(slotsEnd, slot.at + SLOT);
                slotted.put(name, slot);
            } else {
                filed.add(name);
            }
        }
        if (slot != null && end <= SLOT) {
            // A slot handed out again holds its last version's bytes: what lies between is zeros now.
            if (pos > slot.high) {
                writeFile(SLOTS, slot.at + slot.high, ByteBuffer.allocate((int) (pos - slot.high)));
            }
            writeFile(SLOTS, slot.at + pos, in);
            slot.high = (int) Math.max(slot.high, end);
            return;
        }
        if (slot != null) {
            // Outgrown: the version moves to a file of its own, its slot handed out again.
            ByteBuffer held = ByteBuffer.allocate(slot.high);
            readFile(SLOTS, slot.at, held);
            slotted.remove(name);
            freeSlots.push(slot.at);
            filed.add(name);
            write(name, 0, held.flip());
        }
        writeFile(name, pos, in);
    }

    private void writeFile(String name, long pos, ByteBuffer in) {
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
        Slot slot = slotted.get(name);
        if (slot != null) {
            if (size < slot.high) {
                writeFile(SLOTS, slot.at + size, ByteBuffer.allocate((int) (slot.high - size)));
                slot.high = (int) size;
            }
            return;
        }
        try {
            channel(name).truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate " + dir.resolve(name), e);
        }
    }

    /** Copies the first {@code length} bytes of {@code name} (a file written before; fewer when it holds fewer) into {@code out}. */
    long copyTo(String name, long length, FileChannel out) throws IOException {
        Slot slot = slotted.get(name);
        FileChannel ch = channel(slot != null ? SLOTS : name);
        long start = slot != null ? slot.at : 0;
        long end = slot != null ? slot.at + Math.min(length, slot.high) : Math.min(length, ch.size());
        for (long pos = start; pos < end; ) {
            long n = ch.transferTo(pos, end - pos, out);
            if (n <= 0) {
                throw new IOException("cannot copy " + dir.resolve(name));
            }
            pos += n;
        }
        return end - start;
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

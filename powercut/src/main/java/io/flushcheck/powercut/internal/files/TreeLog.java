package io.flushcheck.powercut.internal.files;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A file tree's recording ({@link FileTree#record}), written as the tree changes: every change to names,
 * bytes and permission bits, and every completed sync with the flushes completed after it, in the order
 * made, by node. It starts with the tree as it was (made durable then), said in the same changes up to a
 * {@link #BASE} record. {@link TreeReplay} reads it back into a tree of its own.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
final class TreeLog implements AutoCloseable {

    /** The first byte of a recording. */
    static final int START = 'T';
    static final int CREATE = 1;
    static final int LINK = 2;
    static final int REMOVE = 3;
    static final int RENAME = 4;
    static final int WRITE = 5;
    static final int TRUNCATE = 6;
    static final int MODE = 7;
    static final int SYNC = 8;
    /** The end of the tree as it was when the recording started: everything before it is durable. */
    static final int BASE = 9;
    /** A file with no name, which a program may still write and sync through a descriptor it holds. */
    static final int UNNAMED = 10;
    /** A close of a file that ext4 would start writing then ({@link FileTree#closed}). */
    static final int CLOSED = 11;

    private final Path file;
    private final DataOutputStream out;

    private TreeLog(Path file, DataOutputStream out) {
        this.file = file;
        this.out = out;
    }

    /** A recording in {@code file} (made or replaced) of a tree under the journaled rules or not, after {@code flushes}. */
    static TreeLog create(Path file, boolean journaled, long flushes) throws IOException {
        TreeLog log = new TreeLog(file, new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)));
        log.out.write(START);
        log.out.writeBoolean(journaled);
        log.out.writeLong(flushes);
        return log;
    }

    void create(long parent, String name, boolean dir, int mode, long node) {
        put(() -> {
            out.write(CREATE);
            out.writeLong(parent);
            out.writeUTF(name);
            out.writeBoolean(dir);
            out.writeInt(mode);
            out.writeLong(node);
        });
    }

    void unnamed(long node, int mode) {
        put(() -> {
            out.write(UNNAMED);
            out.writeLong(node);
            out.writeInt(mode);
        });
    }

    void link(long node, long parent, String name) {
        put(() -> {
            out.write(LINK);
            out.writeLong(node);
            out.writeLong(parent);
            out.writeUTF(name);
        });
    }

    void remove(long parent, String name, boolean dir) {
        put(() -> {
            out.write(REMOVE);
            out.writeLong(parent);
            out.writeUTF(name);
            out.writeBoolean(dir);
        });
    }

    void rename(long parent, String name, long newParent, String newName) {
        put(() -> {
            out.write(RENAME);
            out.writeLong(parent);
            out.writeUTF(name);
            out.writeLong(newParent);
            out.writeUTF(newName);
        });
    }

    /** The bytes remaining in {@code data}, which it leaves as they are. */
    void write(long node, long offset, ByteBuffer data) {
        put(() -> {
            out.write(WRITE);
            out.writeLong(node);
            out.writeLong(offset);
            out.writeInt(data.remaining());
            byte[] bytes = new byte[data.remaining()];
            data.duplicate().get(bytes);
            out.write(bytes);
        });
    }

    void truncate(long node, long size) {
        put(() -> {
            out.write(TRUNCATE);
            out.writeLong(node);
            out.writeLong(size);
        });
    }

    void closed(long node) {
        put(() -> {
            out.write(CLOSED);
            out.writeLong(node);
        });
    }

    void mode(long node, int mode) {
        put(() -> {
            out.write(MODE);
            out.writeLong(node);
            out.writeInt(mode);
        });
    }

    void sync(long node, long flushesAfter) {
        put(() -> {
            out.write(SYNC);
            out.writeLong(node);
            out.writeLong(flushesAfter);
        });
    }

    void base() {
        put(() -> out.write(BASE));
    }

    private interface Put {
        void run() throws IOException;
    }

    /** Writes a record; a recording that cannot be written fails the tree's server, as its store does. */
    private void put(Put record) {
        try {
            record.run();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the recording " + file, e);
        }
    }

    @Override
    public void close() {
        put(out::close);
    }
}

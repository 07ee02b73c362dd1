package io.flushcheck.powercut.internal.files;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a crash state of a {@link FileTree} out as a directory tree of real files: its names in the order written
 * ({@link #layout}), each file's bytes as the state kept them, a file's second name a hard link, and the permission
 * bits set last.
 */
final class TreeWriter {

    /**
     * A name of a crash state as it is written out ({@link #layout}): its path from the state's directory, the node it
     * names, the permission bits; for a file, what it keeps ({@code kept}) and what its bytes are made of
     * ({@code content}: its durable bytes' changes folded and their size, its size, and each piece kept of its changes
     * since, by change, from and to: the same content, the same bytes); for a file's name after the first, the first's
     * path ({@code linkOf}), which it is a hard link to.
     */
    record Written(String path, long node, boolean dir, int mode, String linkOf, FilePages.Kept kept, long[] content) {

        /** Whether {@code o} names the same kind of node, the same node, with the same bits and content. */
        boolean sameAs(Written o) {
            return dir == o.dir && node == o.node && mode == o.mode && Arrays.equals(content, o.content);
        }
    }

    private final FileTree tree;
    /** Zeros a truncation's piece is written with, made once. */
    private ByteBuffer zeros;

    TreeWriter(FileTree tree) {
        this.tree = tree;
    }

    /**
     * Writes what {@code survivor} kept into the empty directory {@code to}: the durable tree from the root, each
     * file with the permission bits of its last sync.
     */
    void writeTree(Survivor survivor, Path to) throws IOException {
        List<Written> layout = layout(survivor);
        for (Written w : layout) {
            Path p = to.resolve(w.path());
            writeName(w, p, w.linkOf() == null ? null : to.resolve(w.linkOf()));
        }
        // A directory's permission bits after its names are made in it: it may take none once they are set.
        for (int i = layout.size() - 1; i >= 0; i--) {
            setMode(layout.get(i), to.resolve(layout.get(i).path()));
        }
    }

    /**
     * The names {@code survivor} keeps in the order written, each directory's sorted, a directory's before those in
     * it. A directory under a second name is written under the first alone; a file's second name is a link to its
     * first.
     */
    List<Written> layout(Survivor survivor) {
        if (tree.versions() == FileTree.Versions.SIZES) {
            throw new IllegalStateException("a tree that keeps its files' sizes alone writes no state out");
        }
        List<Written> out = new ArrayList<>();
        Map<Long, String> first = new HashMap<>();
        first.put(FileTree.ROOT, "");
        layoutDir(survivor, FileTree.ROOT, "", first, out);
        return out;
    }

    private void layoutDir(Survivor survivor, long id, String dir, Map<Long, String> first, List<Written> out) {
        for (Map.Entry<String, Long> e : survivor.entries().get(id).entrySet()) {
            TreeNode n = tree.namespace().nodeAt(e.getValue());
            String path = dir.isEmpty() ? e.getKey() : dir + "/" + e.getKey();
            String earlier = first.get(n.id);
            if (n.dir) {
                if (earlier == null) {
                    first.put(n.id, path);
                    out.add(new Written(path, n.id, true, n.durableMode, null, null, null));
                    layoutDir(survivor, n.id, path, first, out);
                }
                continue;
            }
            FilePages.Kept kept = survivor.data().get(n.id);
            if (earlier == null) {
                first.put(n.id, path);
            }
            out.add(new Written(path, n.id, false, n.durableMode, earlier, kept, content(n, kept)));
        }
    }

    /** What file {@code n}'s bytes are made of as {@code kept} leaves it: {@link Written#content()}. */
    private static long[] content(TreeNode n, FilePages.Kept kept) {
        List<FilePages.Piece> pieces = kept.kept();
        long[] c = new long[3 + 3 * pieces.size()];
        c[0] = n.durableFold;
        c[1] = n.durableData.size();
        c[2] = kept.size();
        for (int i = 0; i < pieces.size(); i++) {
            FilePages.Piece piece = pieces.get(i);
            c[3 + 3 * i] = piece.change().order();
            c[4 + 3 * i] = piece.from();
            c[5 + 3 * i] = piece.to();
        }
        return c;
    }

    /**
     * Writes {@code w} at {@code p}: a directory made, a file's bytes written, or (a file's second name) a hard link to
     * {@code first}; its permission bits are {@link #setMode}'s.
     */
    void writeName(Written w, Path p, Path first) throws IOException {
        if (w.dir()) {
            Files.createDirectory(p);
        } else if (first != null) {
            Files.createLink(p, first);
        } else {
            writeFile(tree.namespace().nodeAt(w.node()), w.kept(), p);
        }
    }

    /** Sets {@code w}'s permission bits on {@code p}, written by {@link #writeName}. */
    static void setMode(Written w, Path p) throws IOException {
        Files.setPosixFilePermissions(p, permissions(w.mode()));
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = PosixFilePermission.values(); // OWNER_READ .. OTHERS_EXECUTE, high bit first
        for (int i = 0; i < 9; i++) {
            if ((mode & (1 << (8 - i))) != 0) {
                out.add(bits[i]);
            }
        }
        return out;
    }

    private ByteBuffer zeros() {
        if (zeros == null) {
            zeros = ByteBuffer.allocate(64 << 10);
        }
        return zeros.clear();
    }

    /**
     * Writes file {@code n} as it survived into {@code p}: its durable bytes with the pieces of the changes kept
     * applied in order, a write's its bytes, a truncation's zeros, at the size kept.
     */
    private void writeFile(TreeNode n, FilePages.Kept kept, Path p) throws IOException {
        // RandomAccessFile, not FileChannel: its setLength grows a file as ftruncate does, leaving a hole.
        try (RandomAccessFile file = new RandomAccessFile(p.toFile(), "rw")) {
            file.setLength(0);
            FileChannel out = file.getChannel();
            writeBytes(n, kept, new Out() {
                @Override
                public long copy(FileBytes from) throws IOException {
                    return from.copyTo(out);
                }

                @Override
                public void write(ByteBuffer bytes, long at) throws IOException {
                    while (bytes.hasRemaining()) {
                        at += out.write(bytes, at);
                    }
                }

                @Override
                public void truncate(long size) throws IOException {
                    file.setLength(size);
                }
            });
        }
    }

    /**
     * Writes what file {@code w} of a {@link #layout} keeps into file {@code id} of {@code to}, empty: the same bytes
     * {@link #writeName} writes into a file of the host.
     */
    void copyFile(Written w, FileTree to, long id) throws IOException {
        writeBytes(tree.namespace().nodeAt(w.node()), w.kept(), new Out() {
            @Override
            public long copy(FileBytes from) throws IOException {
                ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(COPY_CHUNK, Math.max(1, from.size())));
                for (long at = 0; at < from.size(); ) {
                    chunk.clear().limit((int) Math.min(chunk.capacity(), from.size() - at));
                    from.read(at, chunk);
                    chunk.flip();
                    write(chunk, at);
                    at += chunk.limit();
                }
                return from.size();
            }

            @Override
            public void write(ByteBuffer bytes, long at) throws IOException {
                try {
                    synchronized (to) {
                        to.data().fill(id, at, bytes);
                    }
                } catch (FileTree.Errno e) {
                    throw new IOException("cannot copy a crash state's file into the tree that serves it: " + e);
                }
            }

            @Override
            public void truncate(long size) throws IOException {
                try {
                    synchronized (to) {
                        to.data().fillSize(id, size);
                    }
                } catch (FileTree.Errno e) {
                    throw new IOException("cannot copy a crash state's file into the tree that serves it: " + e);
                }
            }
        });
    }

    /** The most bytes {@link #copyFile} reads of a file's durable version at once. */
    private static final int COPY_CHUNK = 1 << 20;

    /** Where {@link #writeBytes} writes a file's bytes: a file of the host, or a file of another tree. */
    private interface Out {
        /** Copies {@code from} from its start; returns how far the copy goes (past it the file reads as zeros). */
        long copy(FileBytes from) throws IOException;

        /** Writes every byte of {@code bytes} at {@code at}. */
        void write(ByteBuffer bytes, long at) throws IOException;

        /** Sets the file's size: shorter, or longer with zeros that no write put there. */
        void truncate(long size) throws IOException;
    }

    /**
     * Writes file {@code n} as {@code kept} leaves it into {@code out}, empty: its durable bytes with the pieces of the
     * changes kept applied in order, a write's its bytes, a truncation's zeros, at the size kept.
     */
    private void writeBytes(TreeNode n, FilePages.Kept kept, Out out) throws IOException {
        long size = kept.size();
        // The file's size as written so far, kept here rather than asked of the file (a call each time).
        long high = out.copy(n.durableData);
        for (FilePages.Piece piece : kept.kept()) {
            FileChange c = piece.change();
            if (c.isWrite()) {
                ByteBuffer bytes = c.bytesIn(tree.data().log());
                bytes.limit(bytes.position() + (int) (piece.to() - c.offset()));
                bytes.position(bytes.position() + (int) (piece.from() - c.offset()));
                long at = piece.from();
                int length = bytes.remaining();
                out.write(bytes, at);
                high = Math.max(high, at + length);
            } else {
                // Only what the file holds and the size kept shows: past them it reads as zeros already.
                for (long at = piece.from(), end = Math.min(piece.to(), Math.min(high, size)); at < end; ) {
                    ByteBuffer zeros = zeros();
                    zeros.limit((int) Math.min(zeros.capacity(), end - at));
                    int length = zeros.remaining();
                    out.write(zeros, at);
                    at += length;
                }
            }
        }
        if (high != size) {
            // Past the bytes written, a hole that reads as zeros: no kept write put bytes there, as on a filesystem
            // whose file grew by a truncate or whose writes never reached the drive.
            out.truncate(size);
        }
    }
}

package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.StoreFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The recording of a {@link FileTree}: a {@link TreeLog} that starts with the tree as it is, written as the changes
 * that make it, and takes every change the tree's operations make from then on, until stopped; {@link TreeReplay}
 * reads it back.
 */
final class TreeRecorder {

    private final FileTree tree;
    /** Where every change is written as it is made; null when nothing records them. */
    private TreeLog recording;

    TreeRecorder(FileTree tree) {
        this.tree = tree;
    }

    /** The recording every change is written into as it is made; null when nothing records them. */
    TreeLog log() {
        return recording;
    }

    /**
     * Writes the tree as it is into {@code file} (made or replaced), as changes that make it, and every change from
     * now on after it, until {@link #stop()}. The tree is durable already: the recording starts from a durable tree.
     */
    void start(Path file, boolean journaled, long flushes) throws IOException {
        TreeLog out = TreeLog.create(file, journaled, flushes);
        try {
            Set<Long> said = new HashSet<>();
            said.add(FileTree.ROOT);
            recordTree(FileTree.ROOT, out, said);
            Namespace namespace = tree.namespace();
            for (long id = FileTree.ROOT; id < namespace.nextId(); id++) {
                TreeNode n = namespace.nodeAt(id);
                if (!n.dir && !said.contains(id)) {
                    out.unnamed(id, n.mode);
                    recordBytes(n, out);
                }
            }
            out.base();
        } catch (RuntimeException e) {
            try {
                out.close();
                Files.deleteIfExists(file); // half a recording is none
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        recording = out;
    }

    /** Writes what directory {@code dir} holds into the recording, as changes that make it. */
    private void recordTree(long dir, TreeLog out, Set<Long> said) {
        for (Map.Entry<String, Long> e : tree.namespace().nodeAt(dir).entries.entrySet()) {
            TreeNode n = tree.namespace().nodeAt(e.getValue());
            if (!said.add(n.id)) {
                out.link(n.id, dir, e.getKey());
                continue;
            }
            out.create(dir, e.getKey(), n.dir, n.mode, n.id);
            if (n.dir) {
                recordTree(n.id, out, said);
            } else {
                recordBytes(n, out);
            }
        }
    }

    /**
     * Writes file {@code n}'s size and the 1 MiB pieces of its bytes that are not all zeros into the recording: its
     * durable bytes (the tree is durable as a recording starts), which are what the program reads back except where
     * the drive lost or misdirected a write.
     */
    private static void recordBytes(TreeNode n, TreeLog out) {
        long size = n.durableData.size();
        if (size > 0) {
            out.truncate(n.id, size);
        }
        ByteBuffer piece = ByteBuffer.allocate(1 << 20);
        for (long at = 0; at < size; at += piece.capacity()) {
            piece.clear();
            n.durableData.read(at, piece);
            piece.flip();
            if (!StoreFile.isZeros(piece)) {
                out.write(n.id, at, piece);
            }
        }
    }

    /** Ends the recording {@link #start} started; false when none was. */
    boolean stop() {
        if (recording == null) {
            return false;
        }
        TreeLog ending = recording;
        recording = null;
        ending.close();
        return true;
    }
}

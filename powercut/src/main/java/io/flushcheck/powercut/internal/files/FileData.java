package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.StoreFile;
import io.flushcheck.powercut.internal.model.ReadFaults;
import io.flushcheck.powercut.internal.model.WriteFaults;
import io.flushcheck.powercut.internal.model.WriteLies;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * The files' contents of a {@link FileTree}: writes, reads and truncations; the change log that holds the bytes of
 * every write since its file's last sync ({@link FileChange#logPos} says where); each file's changes page by page
 * ({@link FilePages}); and the 4 KiB blocks the files take against the tree's capacity.
 */
final class FileData {

    /** The change log is emptied, or compacted, only past this: below, it is written over from its start. */
    private static final long LOG_KEPT = 64L << 20;
    /** A file's blocks: what counts against the capacity, and what a bad sector takes whole. */
    static final long BLOCK = 4096;

    private final FileTree tree;
    private final FileStore store;
    private final FileTree.Versions versions;
    private final WriteFaults writeFaults = new WriteFaults();
    private final ReadFaults readFaults = new ReadFaults();
    private final WriteLies writeLies = new WriteLies();
    /** Lies planned on files by name, armed on a file's node at its first write by that name. */
    private final List<NamedLie> namedLies = new ArrayList<>();
    /** The bytes of every write not yet synced, in the order written; {@link FileChange#logPos} says where. */
    private StoreFile log;
    private long logEnd;
    /** Bytes of the log that changes not yet synced still need: {@link #unflushedBytes()}. */
    private long logLive;
    private final long capacity;
    /** The 4 KiB blocks the sizes of the files with a name take, in bytes: what counts against {@link #capacity}. */
    private long used;

    FileData(FileTree tree, Path dir, long capacity, FileTree.Versions versions) {
        this.tree = tree;
        this.capacity = capacity;
        this.versions = versions;
        this.store = new FileStore(dir);
        this.log = StoreFile.in(store.dir());
    }

    /** Where the files' versions of their bytes are kept. */
    FileStore store() {
        return store;
    }

    /** The change log, where {@link FileChange#bytesIn} finds a write's bytes. */
    StoreFile log() {
        return log;
    }

    /** The writes planned to fail. */
    WriteFaults writeFaults() {
        return writeFaults;
    }

    /**
     * A lie planned on the file named {@code path} before it has a node: lost ({@code target} null) or misdirected to
     * {@code targetFrom} of the file named {@code target}.
     */
    record NamedLie(String path, long from, long length, boolean persistent, String target, long targetFrom) {
        NamedLie {
            if (from < 0 || length <= 0 || (target != null && (targetFrom < 0 || targetFrom + length < 0))) {
                throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + from + "+"
                        + length + (target == null ? "" : " to " + targetFrom));
            }
        }
    }

    /** Plans {@code lie}, armed at the first write to a file by its name. */
    void planLie(NamedLie lie) {
        namedLies.add(lie);
    }

    /** Arms the lies planned on {@code n}'s name on its node, about to be written. */
    private void armNamedLies(TreeNode n) {
        String path = tree.namespace().filePath(n);
        for (Iterator<NamedLie> it = namedLies.iterator(); it.hasNext(); ) {
            NamedLie l = it.next();
            if (!l.path().equals(path)) {
                continue;
            }
            it.remove();
            if (l.target() == null) {
                writeLies.lose(n.id, l.from(), l.length(), l.persistent());
            } else {
                TreeNode target = l.target().equals(path) ? n : tree.namespace().fileAt(l.target());
                // A target without a file of that name: its bytes land in no file, as past a file's end.
                writeLies.misdirect(n.id, l.from(), l.length(), l.persistent(), target == null ? Long.MAX_VALUE : target.id,
                        l.targetFrom());
            }
        }
    }

    /** The writes planned to be lost or misdirected. */
    WriteLies writeLies() {
        return writeLies;
    }

    /** The reads planned to fail. */
    ReadFaults readFaults() {
        return readFaults;
    }

    long capacity() {
        return capacity;
    }

    /** The bytes its files take now, in 4 KiB blocks. */
    long used() {
        return used;
    }

    /** Bytes written to files since their last sync. */
    long unflushedBytes() {
        return logLive;
    }

    private static long blocks(long bytes) {
        return (bytes + BLOCK - 1) / BLOCK * BLOCK;
    }

    /** Accounts for file {@code n} (named) growing or shrinking to {@code newSize}: ENOSPC past the capacity. */
    private void resize(TreeNode n, long newSize) throws FileTree.Errno {
        if (n.links <= 0) {
            return;
        }
        long change = blocks(newSize) - blocks(n.data.size());
        if (change > 0 && used + change > capacity) {
            throw new FileTree.Errno(FileTree.Errno.ENOSPC);
        }
        used += change;
    }

    /**
     * Puts {@code data} at {@code offset} of file {@code id} of a tree being made, as bytes it holds from its start:
     * what the kernel sees, no change logged or recorded ({@link ServedState}).
     */
    void fill(long id, long offset, ByteBuffer data) throws FileTree.Errno {
        TreeNode n = tree.namespace().file(id);
        resize(n, Math.max(n.data.size(), offset + data.remaining()));
        n.data.write(offset, data);
    }

    /** Sets the size of file {@code id} of a tree being made, as {@link #fill} puts its bytes. */
    void fillSize(long id, long size) throws FileTree.Errno {
        TreeNode n = tree.namespace().file(id);
        resize(n, size);
        n.data.truncate(size);
    }

    /** Accounts for file {@code n} losing its last name ({@code before} > 0, links 0 now) or getting one back. */
    void relinked(TreeNode n, int before) {
        if (n.dir || (before > 0) == (n.links > 0)) {
            return;
        }
        used += (n.links > 0 ? 1 : -1) * blocks(n.data.size());
    }

    /** Writes the bytes remaining in {@code data} at {@code offset} of file {@code id}, consuming them. */
    void write(long id, long offset, ByteBuffer data) throws FileTree.Errno {
        TreeNode n = tree.namespace().file(id);
        if (tree.power().frozen()) {
            throw new FileTree.Errno(FileTree.Errno.EIO);
        }
        int length = data.remaining();
        int failure = writeFaults.failsNow(id, offset, length);
        if (failure != 0) {
            throw new FileTree.Errno(failure);
        }
        if (offset < 0 || offset + length < 0) {
            throw new FileTree.Errno(FileTree.Errno.EINVAL);
        }
        int unread = readModifyWriteFails(n, offset, length);
        if (unread != 0) {
            throw new FileTree.Errno(unread);
        }
        long oldSize = n.data.size();
        resize(n, Math.max(oldSize, offset + length));
        if (versions != FileTree.Versions.SIZES && logEnd > LOG_KEPT && logEnd > 2 * logLive) {
            compactLog();
        }
        if (!namedLies.isEmpty()) {
            armNamedLies(n);
        }
        List<WriteLies.Lie> lies = writeLies.meet(id, offset, length);
        if (offset + length > oldSize) {
            readFaults.rewritten(id, ceilBlock(oldSize), Long.MAX_VALUE); // blocks past the old end are new blocks
        }
        if (lies.isEmpty()) {
            change(n, offset, data.duplicate());
            // A block the write covers in part is one whose read succeeded (readModifyWriteFails): all of it is new.
            readFaults.rewritten(id, offset / BLOCK * BLOCK, ceilBlock(offset + length));
        } else {
            lie(n, lies, offset, data.duplicate());
        }
        // What the program reads back with the power on, a lie's bytes included: its page cache's.
        n.data.write(offset, data);
        n.mtime = FileTree.now();
    }

    /**
     * The errno of the read a kernel filesystem makes before a write of {@code length} bytes at {@code offset} of file
     * {@code n}, or 0: a write that covers a 4 KiB block only in part must first read the block's other bytes
     * (read-modify-write), if the block holds any of the file's bytes (starts below its size); a bad sector there fails
     * that read, and the write with it, before it changes anything. Counted as a failed read, as the drive's is.
     */
    private int readModifyWriteFails(TreeNode n, long offset, long length) {
        long size = n.data.size();
        long first = offset / BLOCK * BLOCK;
        long last = (offset + length - 1) / BLOCK * BLOCK;
        if (length <= 0) {
            return 0;
        }
        if (offset != first && first < size) {
            int failure = readFaults.failsNow(n.id, first, Math.min(BLOCK, size - first));
            if (failure != 0) {
                return failure;
            }
        }
        if ((offset + length) % BLOCK != 0 && last < size && (last != first || offset == first)) {
            return readFaults.failsNow(n.id, last, Math.min(BLOCK, size - last));
        }
        return 0;
    }

    private static long ceilBlock(long at) {
        return at > Long.MAX_VALUE - BLOCK ? Long.MAX_VALUE : (at + BLOCK - 1) / BLOCK * BLOCK;
    }

    /**
     * The change of file {@code n} that a write of {@code bytes} at {@code offset} makes: what a sync makes durable
     * and a cut may lose, logged and recorded. The bytes the program reads back are the caller's to write.
     */
    private void change(TreeNode n, long offset, ByteBuffer bytes) {
        int length = bytes.remaining();
        FileChange c = FileChange.write(offset, logEnd, length, tree.nextOrder(), tree.namespace().filePath(n));
        TreeLog recording = tree.recorder().log();
        if (recording != null) {
            recording.write(n.id, offset, bytes.duplicate());
        }
        if (versions != FileTree.Versions.SIZES) {
            log.write(logEnd, bytes.duplicate());
        }
        logEnd += length;
        logLive += length;
        tree.rules().pending(n);
        n.fileChanges.add(c);
    }

    /**
     * A write of {@code bytes} at {@code offset} of file {@code n} that meets {@code lies} (within it, by where they
     * start, none overlapping): its change carries the bytes the file held on the drive inside the lies' ranges (so no
     * sync makes the write's own durable, and a cut drops them), and a misdirected write's bytes there become a
     * change of the target file at its place, which its page cache does not see (within the target's size: past it
     * they land in no file).
     */
    private void lie(TreeNode n, List<WriteLies.Lie> lies, long offset, ByteBuffer bytes) {
        int length = bytes.remaining();
        byte[] written = new byte[length];
        bytes.get(written);
        byte[] onDrive = written.clone();
        long done = offset;
        for (WriteLies.Lie lie : lies) {
            int lo = (int) (lie.from() - offset);
            int hi = (int) (lie.to() - offset);
            System.arraycopy(onDrive(n, lie.from(), hi - lo), 0, onDrive, lo, hi - lo);
            readFaults.rewritten(n.id, done, lie.from());
            done = lie.to();
        }
        readFaults.rewritten(n.id, done, offset + length);
        change(n, offset, ByteBuffer.wrap(onDrive));
        for (WriteLies.Lie lie : lies) {
            TreeNode target = lie.lost() ? null : tree.namespace().nodeAt(lie.targetUnit());
            long at = lie.targetFrom();
            if (target == null || target.dir || at >= target.data.size()) {
                continue;
            }
            int landed = (int) Math.min(lie.to() - lie.from(), target.data.size() - at);
            change(target, at, ByteBuffer.wrap(written, (int) (lie.from() - offset), landed));
            readFaults.rewritten(target.id, at, at + landed);
        }
    }

    /**
     * Bytes {@code from} to {@code from + length} of file {@code n} as the drive holds them (its durable bytes with
     * its changes since applied in order), not as its page cache does: a lie's bytes are not there.
     */
    private byte[] onDrive(TreeNode n, long from, int length) {
        byte[] out = new byte[length];
        long end = from + length;
        n.durableData.read(from, ByteBuffer.wrap(out));
        for (FileChange c : n.fileChanges) {
            if (c.isWrite()) {
                long s = Math.max(from, c.offset());
                long e = Math.min(end, c.offset() + c.length());
                if (s < e) {
                    log.bytes(c.logPos() + (s - c.offset()), (int) (e - s)).get(out, (int) (s - from), (int) (e - s));
                }
            } else if (c.newSize() < end) {
                Arrays.fill(out, (int) Math.max(0, c.newSize() - from), length, (byte) 0);
            }
        }
        return out;
    }

    /**
     * Moves the changes not yet synced into a new log, in place of one that holds mostly the bytes of changes
     * synced since: a workload that always leaves some file unsynced would otherwise grow it without end.
     */
    private void compactLog() {
        StoreFile fresh = StoreFile.in(store.dir());
        long end = 0;
        for (TreeNode n : tree.namespace().all()) {
            if (n.dir) {
                continue;
            }
            for (int i = 0; i < n.fileChanges.size(); i++) {
                FileChange c = n.fileChanges.get(i);
                if (c.isWrite()) {
                    fresh.write(end, c.bytesIn(log));
                    n.fileChanges.set(i, FileChange.write(c.offset(), end, c.length(), c.order(), c.path()));
                    end += c.length();
                }
            }
        }
        log.close();
        log = fresh;
        logEnd = end;
    }

    /** Reads file {@code id} at {@code offset} into the space remaining in {@code out}; returns the bytes read. */
    int read(long id, long offset, ByteBuffer out) throws FileTree.Errno {
        TreeNode n = tree.namespace().file(id);
        if (!tree.power().frozen()) {
            // Only bytes the file has are read: a fault to its end does not fail a read past it.
            long present = Math.max(0, Math.min(out.remaining(), n.data.size() - offset));
            int failure = readFaults.failsNow(id, offset, present);
            if (failure != 0) {
                throw new FileTree.Errno(failure);
            }
        }
        return n.data.read(offset, out);
    }

    /**
     * Changes {@code length} bytes of file {@code n} from {@code from} by {@code change}, in what reads now and in
     * what is durable, each as far as its size reaches: data at rest that decayed, not a write, so no change is logged
     * and no read fault is cleared.
     */
    void changeAtRest(TreeNode n, long from, long length, java.util.function.UnaryOperator<Byte> change) {
        if (from < 0 || length <= 0 || from + length < 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + from + "+" + length);
        }
        for (FileBytes version : new FileBytes[] {n.data, n.durableData}) {
            long end = Math.min(from + length, version.size());
            for (long at = from; at < end; ) {
                int chunk = (int) Math.min(end - at, 1 << 16);
                ByteBuffer bytes = ByteBuffer.allocate(chunk);
                version.read(at, bytes);
                for (int i = 0; i < chunk; i++) {
                    bytes.put(i, change.apply(bytes.get(i)));
                }
                version.write(at, bytes.clear());
                at += chunk;
            }
        }
    }

    /** Sets a file's size, cutting it or extending it with zeros. */
    void truncate(long id, long size) throws FileTree.Errno {
        TreeNode n = tree.namespace().file(id);
        if (tree.power().frozen()) {
            throw new FileTree.Errno(FileTree.Errno.EIO);
        }
        if (size < 0) {
            throw new FileTree.Errno(FileTree.Errno.EINVAL);
        }
        resize(n, size);
        // The blocks wholly past the new end (or the old one) are freed: bytes written there later land on new blocks.
        // The block the new end falls in is kept, and with it a bad sector under any of its bytes.
        readFaults.rewritten(id, ceilBlock(Math.min(size, n.data.size())), Long.MAX_VALUE);
        n.truncatedToZero |= size == 0;
        FileChange c = FileChange.truncate(size, tree.nextOrder(), tree.namespace().filePath(n));
        TreeLog recording = tree.recorder().log();
        if (recording != null) {
            recording.truncate(id, size);
        }
        c.applyTo(n.data, log);
        tree.rules().pending(n);
        n.fileChanges.add(c);
        tree.rules().truncated(n);
        n.mtime = FileTree.now();
    }

    /** Makes file {@code n}'s changes durable: applied to its durable bytes, no longer needed in the log. */
    void commit(TreeNode n) {
        for (FileChange c : n.fileChanges) {
            c.applyTo(n.durableData, log);
            n.durableFold = fold(n.durableFold, c.order());
            logLive -= c.length();
        }
        n.fileChanges.clear();
        n.committedTruncations = 0;
        if (logLive == 0) {
            // Nothing in the log is needed now: written over from its start, its blocks freed when it grew large.
            if (logEnd > LOG_KEPT) {
                log.clear();
            }
            logEnd = 0;
        }
    }

    private static long fold(long folded, long order) {
        long h = (folded ^ order) * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    /**
     * File {@code n}'s changes since its last sync, page by page, made once for the file as it is now: again only once
     * its changes, durable size or committed truncations are others ({@link FilePages#isOf}), whatever changed them, so
     * that an epoch's end finds those of the files its epoch left alone made already.
     */
    FilePages pages(TreeNode n) {
        if (n.pages == null || !n.pages.isOf(n.fileChanges, n.durableData.size(), n.committedTruncations)) {
            n.pages = FilePages.of(List.copyOf(n.fileChanges), n.durableData.size(), n.committedTruncations);
        }
        return n.pages;
    }

    /** Frees the files it keeps its bytes in. */
    void close() {
        try {
            log.close();
        } finally {
            store.close();
        }
    }

    /**
     * Reads of file {@code id} fail as planned, the range taking the whole {@link #BLOCK}s of the file it reaches
     * into: a bad sector is a place, as on a drive.
     */
    void failReads(long id, long from, long length, boolean persistent, int errno) {
        if (from < 0 || length <= 0) {
            throw new IllegalArgumentException("a range starts at 0 or later and is not empty, not " + from + "+" + length);
        }
        long start = from / BLOCK * BLOCK;
        long end = from + length < 0 || from + length > Long.MAX_VALUE - BLOCK ? Long.MAX_VALUE
                : (from + length + BLOCK - 1) / BLOCK * BLOCK;
        readFaults().fail(id, start, end - start, persistent, errno);
    }
}

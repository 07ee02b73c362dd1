package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.PowerSwitch;
import io.flushcheck.powercut.internal.model.StoreFile;
import io.flushcheck.powercut.internal.model.SwitchedModel;
import io.flushcheck.powercut.internal.model.WriteFaults;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * A directory tree as the file-level model of a power cut, under one of two rules. Journaled (the default,
 * {@link #FileTree(int, int, Path, long, boolean)}), as ext4, xfs and btrfs: the namespace is one ordered log
 * across directories, and a sync of anything makes durable every name change made before it (and the permission
 * bits, and every file's truncations and sizes set, as the journal's metadata), with the synced file's data; other
 * files' data stays volatile. POSIX, the durability POSIX promises and no more: a file's data and size become
 * durable when the file is synced ({@code fsync}, {@code fdatasync}, a write through {@code O_SYNC} or
 * {@code O_DSYNC}); a name (create, link, unlink, rename, mkdir, rmdir) becomes durable when its directory is
 * synced. A cut keeps what is durable
 * ({@link CutMode#FLUSHED}), or that and, drawn from a seed ({@link CutMode#SUBSET}), what a page-cache
 * filesystem can have written back of each file since its last sync ({@link FilePages}: each 4 KiB page as it
 * was at one moment, a prefix in time of the writes that touched it, pages independently of each other, the
 * size as the filesystem would have it) and a prefix of each directory's changes since its last sync (a
 * filesystem commits its names in order; under the journaled rules, a prefix of the one log of changes since
 * the last sync of anything). Every sync counts
 * as a flush: {@link #flushes()} are the durability points a workload reached.
 *
 * <p>Real filesystems give more: ext4 commits a rename over an existing file together with the file's
 * data, and its journal makes a new file's name durable with the file's own fsync. This model does not,
 * so it shows what a program gets on every POSIX filesystem, the way a filesystem that does the least
 * would treat it.
 *
 * <p>Its size is bounded, as a disk's is ({@link #FileTree(int, int, Path, long)}): a write or a truncate
 * that would take a file's blocks past it fails with ENOSPC (the model allocates every 4 KiB block a file's
 * size covers; it keeps no holes). The bytes live on the disk, not in the heap: each file's current and
 * durable versions in sparse files of a {@link FileStore}, and each write since a file's last sync, which
 * a cut keeps or loses page by page, in one change log; the heap holds the tree and where each change lies.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileTree extends SwitchedModel {

    /** The root directory's node. */
    public static final long ROOT = 1;

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

        void applyTo(Bytes b, StoreFile log) {
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

    /**
     * A change to a directory not yet synced: a name set to a node, or removed (node 0), the {@code seq}-th of the tree,
     * part of the operation {@code op} says (a rename is two changes of one operation, the same object), its
     * {@code order}-th.
     */
    record NameChange(String name, long node, long seq, String op, long order) {
        void applyTo(TreeMap<String, Long> entries) {
            if (node == 0) {
                entries.remove(name);
            } else {
                entries.put(name, node);
            }
        }
    }

    /** A file or directory: what the kernel sees now, what is durable, and the changes between. */
    public static final class Node {
        final long id;
        final boolean dir;
        int mode;
        int durableMode;
        int uid;
        int gid;
        int links;
        long mtime;
        long ctime;
        final Bytes data;
        final Bytes durableData;
        final List<FileChange> fileChanges;
        /**
         * The first truncations of {@link #fileChanges} a sync of another node made durable (the journaled rules
         * commit every size change before any sync): their sizes, and the pages they cut, survive every cut.
         */
        int committedTruncations;
        /** Truncated to 0 since its last close: ext4 starts writing what it holds at the next close (auto_da_alloc). */
        boolean truncatedToZero;
        /**
         * Writes made before this operation are ones ext4 would have started writing early ({@link #earlyWhy}), so
         * that the next commit of its journal keeps them (auto_da_alloc); -1 when there are none.
         */
        long earlyBefore = -1;
        String earlyWhy;
        final TreeMap<String, Long> entries;
        final TreeMap<String, Long> durableEntries;
        final List<NameChange> nameChanges;
        /** The changes its durable bytes were made by, folded in the order applied: equal folds, equal bytes. */
        long durableFold;
        long parent;
        /** The name last given to this node, and the directory it was given in: what a note of a change calls it. */
        String lastName = "";
        long lastDir = ROOT;
        /** {@link #path(Node)} of a file, as of {@link FileTree#renames} {@code pathAt}. */
        String pathCache;
        long pathAt = -1;

        Node(long id, boolean dir, int mode, int uid, int gid, long now, FileStore store, Versions versions) {
            this.id = id;
            this.dir = dir;
            this.mode = mode;
            this.durableMode = mode;
            this.uid = uid;
            this.gid = gid;
            this.mtime = now;
            this.ctime = now;
            this.data = dir ? null : new Bytes(versions == Versions.ALL ? store : null, "n" + id);
            this.durableData = dir ? null : new Bytes(versions == Versions.SIZES ? null : store, "n" + id + "-durable");
            this.fileChanges = dir ? null : new ArrayList<>();
            this.entries = dir ? new TreeMap<>() : null;
            this.durableEntries = dir ? new TreeMap<>() : null;
            this.nameChanges = dir ? new ArrayList<>() : null;
        }

        public long id() {
            return id;
        }

        public boolean dir() {
            return dir;
        }

        /** The type and permission bits, as {@code st_mode}. */
        public int mode() {
            return (dir ? 040000 : 0100000) | (mode & 07777);
        }

        public int uid() {
            return uid;
        }

        public int gid() {
            return gid;
        }

        /** Hard links to a file; 2 plus subdirectories for a directory. */
        public int links() {
            return links;
        }

        public long size() {
            return dir ? 0 : data.size();
        }

        public long mtime() {
            return mtime;
        }

        public long ctime() {
            return ctime;
        }
    }

    /** An error a filesystem call returns, as its errno. */
    public static final class Errno extends Exception {
        private static final long serialVersionUID = 1L;
        public static final int ENOENT = 2;
        public static final int EIO = 5;
        public static final int EEXIST = 17;
        public static final int ENOTDIR = 20;
        public static final int EISDIR = 21;
        public static final int EINVAL = 22;
        public static final int ENOSPC = 28;
        public static final int ENOTEMPTY = 39;

        private final int errno;

        Errno(int errno) {
            super("errno " + errno, null, false, false);
            this.errno = errno;
        }

        public int errno() {
            return errno;
        }
    }

    private final Map<Long, Node> nodes = new HashMap<>();
    private long nextId = ROOT;
    /** What the cut kept, however the power went; null while it is on, and after an armed sync until {@link #cut}. */
    private Survivor duringCut;
    private final WriteFaults writeFaults = new WriteFaults();
    private final FileStore store;
    /** The bytes of every write not yet synced, in the order written; {@link FileChange#logPos} says where. */
    private StoreFile log;
    private long logEnd;
    /** Bytes of the log that changes not yet synced still need: {@link #unflushedBytes()}. */
    private long logLive;
    private final long capacity;
    /** The journaled rules (one ordered namespace log, committed by any sync), else the POSIX floor. */
    private final boolean journaled;
    /** The versions of its files' bytes it keeps. */
    private final Versions versions;

    /** The versions of its files' bytes a tree keeps: the others' sizes alone. */
    enum Versions {
        /** What the kernel sees now and what is durable: a tree a program uses. */
        ALL,
        /**
         * What is durable, with the changes since (its change log): a tree played again to write its crash states
         * out, which no program reads. A file then takes a file of its own only once synced.
         */
        DURABLE,
        /** None: a tree played again to find its crash states, which writes none out. It makes no file for a file. */
        SIZES
    }
    /** Name changes made so far, numbered in the order made: the one log under the journaled rules. */
    private long nameSeq;
    /** {@link #nameSeq} at the last sync of anything: a change before it a journaled filesystem has committed. */
    private long seqAtLastSync;
    /** {@link #order} at the last sync of anything. */
    private long orderAtLastSync;
    /** Operations (name changes, writes, truncations) made so far, numbered in the order made. */
    private long order;
    /** Renames and links made so far: a path cached before one may be stale. */
    private long renames;
    /** Directories with name changes not yet durable, and nodes whose permission bits changed since they were. */
    private final Map<Long, Node> pendingNames = new TreeMap<>();
    private final Map<Long, Node> pendingModes = new TreeMap<>();
    /** Under the journaled rules, files with truncations no sync has committed yet. */
    private final Map<Long, Node> pendingTruncations = new TreeMap<>();
    /** Files with changes since their last sync. */
    private final Map<Long, Node> pendingFiles = new TreeMap<>();
    /**
     * The digest of every name the tree holds ({@link TreeSum}), with what it names, a file with changes not yet
     * synced left out: kept as the tree changes once a crash state's digest was asked for ({@link #stateKeys}), null
     * before.
     */
    private TreeSum names;
    /** The 4 KiB blocks the sizes of the files with a name take, in bytes: what counts against {@link #capacity}. */
    private long used;
    /** Where every change is written as it is made ({@link #record}); null when nothing records them. */
    private TreeLog recording;
    /** Writes, truncations and syncs of files so far: the pages of their changes ({@link #pages}) are as of one. */
    private long fileEdits;
    private long pagesAt = -1;
    private final Map<Long, FilePages> pages = new HashMap<>();

    /** The change log is emptied, or compacted, only past this: below, it is written over from its start. */
    private static final long LOG_KEPT = 64L << 20;
    private static final long BLOCK = 4096;

    /** As {@link #FileTree(int, int, Path, long)}, unbounded, its bytes in the JVM's temporary directory. */
    public FileTree(int uid, int gid) {
        this(uid, gid, StoreFile.defaultDir(), Long.MAX_VALUE);
    }

    /** As {@link #FileTree(int, int)}, under the journaled rules or ({@code journaled} false) the POSIX floor. */
    public FileTree(int uid, int gid, boolean journaled) {
        this(uid, gid, StoreFile.defaultDir(), Long.MAX_VALUE, journaled);
    }

    /** As {@link #FileTree(int, int, Path, long, boolean)} under the journaled rules. */
    public FileTree(int uid, int gid, Path dir, long capacity) {
        this(uid, gid, dir, capacity, true);
    }

    /**
     * An empty tree of {@code capacity} bytes whose root belongs to {@code uid}/{@code gid}, with mode 0755
     * (the root is durable), its bytes kept in files under {@code dir} (the disk's work directory), under the
     * journaled rules or ({@code journaled} false) the POSIX floor.
     */
    public FileTree(int uid, int gid, Path dir, long capacity, boolean journaled) {
        this(uid, gid, dir, capacity, journaled, Versions.ALL);
    }

    /**
     * As {@link #FileTree(int, int, Path, long, boolean)}, keeping {@code versions} of its files' bytes: a tree
     * played again keeps fewer ({@link Versions}), and makes fewer files for them.
     */
    FileTree(int uid, int gid, Path dir, long capacity, boolean journaled, Versions versions) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a disk holds a positive number of bytes, not " + capacity);
        }
        this.capacity = capacity;
        this.journaled = journaled;
        this.versions = versions;
        this.store = new FileStore(dir);
        this.log = StoreFile.in(store.dir());
        Node root = newNode(true, 0755, uid, gid);
        root.links = 2;
    }

    /** True under the journaled rules, false under the POSIX floor. */
    public boolean journaled() {
        return journaled;
    }

    /** The bytes the tree may hold: a write past them fails with ENOSPC. */
    public long capacity() {
        return capacity;
    }

    /** The bytes its files take now, in 4 KiB blocks: what counts against {@link #capacity()}. */
    public synchronized long used() {
        return used;
    }

    private static long blocks(long bytes) {
        return (bytes + BLOCK - 1) / BLOCK * BLOCK;
    }

    /** Accounts for file {@code n} (named) growing or shrinking to {@code newSize}: ENOSPC past the capacity. */
    private void resize(Node n, long newSize) throws Errno {
        if (n.links <= 0) {
            return;
        }
        long change = blocks(newSize) - blocks(n.data.size());
        if (change > 0 && used + change > capacity) {
            throw new Errno(Errno.ENOSPC);
        }
        used += change;
    }

    /** Accounts for file {@code n} losing its last name ({@code before} > 0, links 0 now) or getting one back. */
    private void relinked(Node n, int before) {
        if (n.dir || (before > 0) == (n.links > 0)) {
            return;
        }
        used += (n.links > 0 ? 1 : -1) * blocks(n.data.size());
    }

    private Node newNode(boolean dir, int mode, int uid, int gid) {
        Node n = new Node(nextId++, dir, mode & 07777, uid, gid, System.currentTimeMillis() / 1000, store, versions);
        nodes.put(n.id, n);
        return n;
    }

    /** The node {@code id}; ENOENT when there is none. */
    public synchronized Node node(long id) throws Errno {
        Node n = nodes.get(id);
        if (n == null) {
            throw new Errno(Errno.ENOENT);
        }
        return n;
    }

    private Node dir(long id) throws Errno {
        Node d = node(id);
        if (!d.dir) {
            throw new Errno(Errno.ENOTDIR);
        }
        return d;
    }

    /** The node {@code name} names in directory {@code parent}. */
    public synchronized Node lookup(long parent, String name) throws Errno {
        Node d = dir(parent);
        if (name.equals(".")) {
            return d;
        }
        if (name.equals("..")) {
            return node(d.id == ROOT ? ROOT : d.parent);
        }
        Long id = d.entries.get(name);
        if (id == null) {
            throw new Errno(Errno.ENOENT);
        }
        return node(id);
    }

    /** The names in directory {@code id}, sorted, with their nodes. */
    public synchronized List<Map.Entry<String, Node>> list(long id) throws Errno {
        Node d = dir(id);
        List<Map.Entry<String, Node>> out = new ArrayList<>();
        for (Map.Entry<String, Long> e : d.entries.entrySet()) {
            out.add(Map.entry(e.getKey(), nodes.get(e.getValue())));
        }
        return out;
    }

    /** Creates a file or directory {@code name} in {@code parent}: EEXIST when the name is taken. */
    public synchronized Node create(long parent, String name, boolean dir, int mode, int uid, int gid) throws Errno {
        Node d = namingDir(parent);
        checkName(name);
        if (d.entries.containsKey(name)) {
            throw new Errno(Errno.EEXIST);
        }
        Node n = newNode(dir, mode, uid, gid);
        n.parent = d.id;
        n.lastName = name;
        n.lastDir = d.id;
        n.links = dir ? 2 : 1;
        if (dir) {
            d.links++;
        }
        setName(d, name, n.id, (dir ? "mkdir " : "create ") + relPath(d, name));
        if (recording != null) {
            recording.create(d.id, name, dir, n.mode, n.id);
        }
        return n;
    }

    /** A new name {@code name} in {@code parent} for the file {@code id}. */
    public synchronized Node link(long id, long parent, String name) throws Errno {
        Node n = node(id);
        if (n.dir) {
            throw new Errno(1); // EPERM: no hard links to directories
        }
        Node d = namingDir(parent);
        checkName(name);
        if (d.entries.containsKey(name)) {
            throw new Errno(Errno.EEXIST);
        }
        n.links++;
        relinked(n, n.links - 1);
        n.ctime = now();
        String op = "link " + filePath(n) + " -> " + relPath(d, name);
        renames++;
        n.lastName = name;
        n.lastDir = d.id;
        setName(d, name, n.id, op);
        if (recording != null) {
            recording.link(n.id, d.id, name);
        }
        return n;
    }

    /** Removes the name {@code name} from {@code parent}: a file's ({@code dir} false) or an empty directory's. */
    public synchronized void remove(long parent, String name, boolean dir) throws Errno {
        Node d = writableDir(parent);
        Long id = d.entries.get(name);
        if (id == null) {
            throw new Errno(Errno.ENOENT);
        }
        Node n = nodes.get(id);
        if (dir && !n.dir) {
            throw new Errno(Errno.ENOTDIR);
        }
        if (!dir && n.dir) {
            throw new Errno(Errno.EISDIR);
        }
        if (dir && !n.entries.isEmpty()) {
            throw new Errno(Errno.ENOTEMPTY);
        }
        n.links -= dir ? 2 : 1;
        relinked(n, n.links + 1);
        if (dir) {
            d.links--;
        }
        n.ctime = now();
        setName(d, name, 0, (dir ? "rmdir " : "unlink ") + relPath(d, name));
        if (recording != null) {
            recording.remove(d.id, name, dir);
        }
    }

    /**
     * Renames {@code name} in {@code parent} to {@code newName} in {@code newParent}, replacing a file there,
     * or an empty directory; with {@code noReplace}, EEXIST when the new name is taken.
     */
    public synchronized void rename(long parent, String name, long newParent, String newName, boolean noReplace)
            throws Errno {
        Node from = writableDir(parent);
        Node to = namingDir(newParent);
        checkName(newName);
        Long id = from.entries.get(name);
        if (id == null) {
            throw new Errno(Errno.ENOENT);
        }
        Node n = nodes.get(id);
        Long old = to.entries.get(newName);
        if (old != null && old.equals(id)) {
            return;
        }
        if (old != null && !n.dir && !nodes.get(old).dir) {
            // ext4 starts writing a file renamed over another at the rename (auto_da_alloc): its next commit keeps it.
            n.earlyBefore = order;
            n.earlyWhy = "at its rename over " + newName;
        }
        if (old != null) {
            if (noReplace) {
                throw new Errno(Errno.EEXIST);
            }
            Node replaced = nodes.get(old);
            if (replaced.dir != n.dir) {
                throw new Errno(replaced.dir ? Errno.EISDIR : Errno.ENOTDIR);
            }
            if (replaced.dir && !replaced.entries.isEmpty()) {
                throw new Errno(Errno.ENOTEMPTY);
            }
            replaced.links -= replaced.dir ? 2 : 1;
            relinked(replaced, replaced.links + 1);
            if (replaced.dir) {
                to.links--;
            }
        }
        if (n.dir) {
            for (long up = to.id; up != ROOT; up = nodes.get(up).parent) {
                if (up == n.id) {
                    throw new Errno(Errno.EINVAL); // into itself
                }
            }
            from.links--;
            to.links++;
            n.parent = to.id;
        }
        String op = from == to
                ? "rename " + name + " -> " + newName + (from.id == ROOT ? "" : " in " + relPath(from, null))
                : "rename " + relPath(from, name) + " -> " + relPath(to, newName);
        setName(from, name, 0, op);
        setName(to, newName, n.id, op);
        renames++;
        n.lastName = newName;
        n.lastDir = to.id;
        n.ctime = now();
        if (recording != null) {
            recording.rename(from.id, name, to.id, newName);
        }
    }

    private void setName(Node d, String name, long id, String op) {
        NameChange c = new NameChange(name, id, nameSeq++, op, order++);
        if (names != null) {
            Long before = d.entries.get(name);
            names = names.minus(before == null ? TreeSum.ZERO : namePart(d.id, name, before))
                    .plus(id == 0 ? TreeSum.ZERO : namePart(d.id, name, id));
        }
        c.applyTo(d.entries);
        d.nameChanges.add(c);
        pendingNames.put(d.id, d);
        d.mtime = now();
        d.ctime = d.mtime;
    }

    private Node writableDir(long id) throws Errno {
        Node d = dir(id);
        if (power.frozen()) {
            throw new Errno(Errno.EIO);
        }
        return d;
    }

    /**
     * A directory a new name goes in: ENOENT for one removed, as the kernel refuses a name in a directory removed
     * while a program held it, so that a tree (and a recording played again) never holds names no path reaches.
     */
    private Node namingDir(long id) throws Errno {
        Node d = writableDir(id);
        if (d.id != ROOT && d.links == 0) {
            throw new Errno(Errno.ENOENT);
        }
        return d;
    }

    private static void checkName(String name) throws Errno {
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            throw new Errno(Errno.EINVAL);
        }
    }

    /** Writes the bytes remaining in {@code data} at {@code offset} of file {@code id}, consuming them. */
    public synchronized void write(long id, long offset, ByteBuffer data) throws Errno {
        Node n = file(id);
        if (power.frozen()) {
            throw new Errno(Errno.EIO);
        }
        int length = data.remaining();
        int failure = writeFaults.failsNow(id, offset, length);
        if (failure != 0) {
            throw new Errno(failure);
        }
        if (offset < 0 || offset + length < 0) {
            throw new Errno(Errno.EINVAL);
        }
        resize(n, Math.max(n.data.size(), offset + length));
        if (versions != Versions.SIZES && logEnd > LOG_KEPT && logEnd > 2 * logLive) {
            compactLog();
        }
        FileChange c = FileChange.write(offset, logEnd, length, order++, filePath(n));
        if (recording != null) {
            recording.write(id, offset, data);
        }
        if (versions != Versions.SIZES) {
            log.write(logEnd, data.duplicate());
        }
        logEnd += length;
        logLive += length;
        n.data.write(offset, data);
        pending(n);
        n.fileChanges.add(c);
        fileEdits++;
        n.mtime = now();
    }

    /**
     * Moves the changes not yet synced into a new log, in place of one that holds mostly the bytes of changes
     * synced since: a workload that always leaves some file unsynced would otherwise grow it without end.
     */
    private void compactLog() {
        StoreFile fresh = StoreFile.in(store.dir());
        long end = 0;
        for (Node n : nodes.values()) {
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
    public synchronized int read(long id, long offset, ByteBuffer out) throws Errno {
        return file(id).data.read(offset, out);
    }

    /** Sets a file's size, cutting it or extending it with zeros. */
    public synchronized void truncate(long id, long size) throws Errno {
        Node n = file(id);
        if (power.frozen()) {
            throw new Errno(Errno.EIO);
        }
        if (size < 0) {
            throw new Errno(Errno.EINVAL);
        }
        resize(n, size);
        n.truncatedToZero |= size == 0;
        FileChange c = FileChange.truncate(size, order++, filePath(n));
        if (recording != null) {
            recording.truncate(id, size);
        }
        c.applyTo(n.data, log);
        pending(n);
        n.fileChanges.add(c);
        if (journaled) {
            pendingTruncations.put(n.id, n);
        }
        fileEdits++;
        n.mtime = now();
    }

    /**
     * A close(2) of file {@code id}: where it was truncated to 0 since its last close, ext4 starts writing what it
     * holds now (auto_da_alloc, on by default), and the next commit of its journal, at a sync of anything, keeps it.
     * The model keeps no more for it (xfs and other filesystems need not): what a cut loses of those writes says so.
     */
    public synchronized void closed(long id) {
        Node n = nodes.get(id);
        if (n == null || n.dir || !n.truncatedToZero || power.frozen()) {
            return;
        }
        n.truncatedToZero = false;
        n.earlyBefore = order;
        n.earlyWhy = "at its close after a truncation to 0";
        if (recording != null) {
            recording.closed(id);
        }
    }

    /** Sets the permission bits, owner or times that {@code chmod}, {@code chown} and {@code utimes} change. */
    public synchronized void setAttributes(long id, Integer mode, Integer uid, Integer gid, Long mtime) throws Errno {
        Node n = node(id);
        if (mode != null) {
            n.mode = mode & 07777;
            pendingModes.put(n.id, n);
            if (recording != null) {
                recording.mode(id, n.mode);
            }
        }
        if (uid != null) {
            n.uid = uid;
        }
        if (gid != null) {
            n.gid = gid;
        }
        if (mtime != null) {
            n.mtime = mtime;
        }
        n.ctime = now();
    }

    private Node file(long id) throws Errno {
        Node n = node(id);
        if (n.dir) {
            throw new Errno(Errno.EISDIR);
        }
        return n;
    }

    /**
     * A sync of node {@code id}: a file's data, size and mode, or a directory's names, become durable.
     *
     * @return false when the power went at this sync (an armed cut during it): it must fail
     */
    public boolean sync(long id) throws Errno {
        return syncResult(id) == 0;
    }

    /**
     * As {@link #sync(long)}: 0 when the sync completed, else the errno it fails with (EIO when the power
     * went at it, the planned one for a failing sync, {@link #failFlushesAfter}).
     */
    public synchronized int syncResult(long id) throws Errno {
        Node n = node(id);
        int refused = power.arrive(seed -> duringCut = freeze(CutMode.SUBSET, seed));
        if (refused != PowerSwitch.CARRY_OUT) {
            return refused;
        }
        if (journaled) {
            // One ordered log: every name change and permission change so far commits with this sync.
            for (Node d : pendingNames.values()) {
                commitNames(d);
            }
            pendingNames.clear();
            for (Node m : pendingModes.values()) {
                modeDurable(m);
            }
            pendingModes.clear();
            // A size change is metadata in the same journal: committed too, the files' data left to the page rule.
            if (!pendingTruncations.isEmpty()) {
                for (Node f : pendingTruncations.values()) {
                    f.committedTruncations = (int) f.fileChanges.stream().filter(c -> !c.isWrite()).count();
                }
                pendingTruncations.clear();
                fileEdits++;
            }
        } else if (n.dir) {
            commitNames(n);
            pendingNames.remove(n.id);
        }
        if (!n.dir) {
            commitData(n);
        }
        modeDurable(n);
        seqAtLastSync = nameSeq;
        orderAtLastSync = order;
        power.completed();
        if (recording != null) {
            recording.sync(id, power.flushes());
        }
        return 0;
    }

    /** File {@code n} is about to change: from now on its part of {@link #names} is its states', not the tree's. */
    private void pending(Node n) {
        if (n.fileChanges.isEmpty()) {
            if (names != null) {
                names = names.minus(syncedPart(n).times(n.links));
            }
            pendingFiles.put(n.id, n);
        }
    }

    /** Makes file {@code n}'s changes durable. */
    private void commitData(Node n) {
        boolean changed = !n.fileChanges.isEmpty();
        for (FileChange c : n.fileChanges) {
            c.applyTo(n.durableData, log);
            n.durableFold = fold(n.durableFold, c.order());
            logLive -= c.length();
        }
        n.fileChanges.clear();
        n.committedTruncations = 0;
        pendingTruncations.remove(n.id);
        pendingFiles.remove(n.id);
        if (changed && names != null) {
            names = names.plus(syncedPart(n).times(n.links));
        }
        fileEdits++;
        if (logLive == 0) {
            // Nothing in the log is needed now: written over from its start, its blocks freed when it grew large.
            if (logEnd > LOG_KEPT) {
                log.clear();
            }
            logEnd = 0;
        }
    }

    /** Makes node {@code n}'s permission bits durable, and its part of {@link #names} with them. */
    private void modeDurable(Node n) {
        if (n.durableMode == n.mode) {
            return;
        }
        boolean counted = names != null && (n.dir || n.fileChanges.isEmpty());
        long named = n.dir ? (n.id != ROOT && n.links > 0 ? 1 : 0) : n.links;
        if (counted) {
            names = names.minus(syncedPart(n).times(named));
        }
        n.durableMode = n.mode;
        if (counted) {
            names = names.plus(syncedPart(n).times(named));
        }
    }

    private static long fold(long folded, long order) {
        long h = (folded ^ order) * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 29);
    }

    /**
     * Makes everything durable, as a sync of every file and directory would, without counting a flush: where a
     * recording starts ({@link #record}), as the block model's starts after a sync of the whole filesystem.
     */
    synchronized void commitAll() {
        for (Node d : pendingNames.values()) {
            commitNames(d);
        }
        pendingNames.clear();
        for (Node n : nodes.values()) {
            if (!n.dir) {
                commitData(n);
            }
            modeDurable(n);
        }
        pendingModes.clear();
        seqAtLastSync = nameSeq;
    }

    private static void commitNames(Node d) {
        for (NameChange c : d.nameChanges) {
            c.applyTo(d.durableEntries);
        }
        d.nameChanges.clear();
    }

    /** {@link #record(Path)}: a tree's recording starts from itself, written into the log, and has no {@code base}. */
    @Override
    public void record(Path log, Path base) throws IOException {
        if (base != null) {
            throw new IllegalArgumentException("the file model's recording has no base image: " + base);
        }
        record(log);
    }

    /**
     * Writes every change from now on into {@code file} (made or replaced), a recording {@link TreeReplay} reads
     * back, until {@link #stopRecording()}. First everything is made durable (the recording starts from a
     * durable tree, as the block model's starts after a sync of the whole filesystem) and written as it is.
     */
    public synchronized void record(Path file) throws IOException {
        if (recording != null) {
            throw new IllegalStateException("the tree is being recorded already");
        }
        power.requirePower();
        commitAll();
        TreeLog out = TreeLog.create(file, journaled, power.flushes());
        try {
            Set<Long> said = new HashSet<>();
            said.add(ROOT);
            recordTree(ROOT, out, said);
            for (long id = ROOT; id < nextId; id++) {
                Node n = nodes.get(id);
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
        for (Map.Entry<String, Long> e : nodes.get(dir).entries.entrySet()) {
            Node n = nodes.get(e.getValue());
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

    /** Writes file {@code n}'s size and the 1 MiB pieces of its bytes that are not all zeros into the recording. */
    private static void recordBytes(Node n, TreeLog out) {
        long size = n.data.size();
        if (size > 0) {
            out.truncate(n.id, size);
        }
        ByteBuffer piece = ByteBuffer.allocate(1 << 20);
        for (long at = 0; at < size; at += piece.capacity()) {
            piece.clear();
            n.data.read(at, piece);
            piece.flip();
            if (!StoreFile.isZeros(piece)) {
                out.write(n.id, at, piece);
            }
        }
    }

    /** Ends the recording {@link #record} started; false when none was. */
    public synchronized boolean stopRecording() {
        if (recording == null) {
            return false;
        }
        TreeLog ending = recording;
        recording = null;
        ending.close();
        return true;
    }

    /** A new file with no name, as one a program unlinked while it held it open: what a recording may start with. */
    synchronized Node unnamed(int mode) {
        return newNode(false, mode, 0, 0);
    }

    /**
     * The crash states of the tree as it is now, with the power on, of the changes made since their last
     * sync: the durable state; every prefix of the name changes (the one log under the journaled rules, each
     * directory's under POSIX's, the other directories' kept), ending between two operations (a rename's
     * two names go together within one log; under POSIX's rules a rename between directories is in two); of each
     * file, each page (each run of pages the same changes touched, {@link FilePages}) as it was before each of
     * the changes that touched it, and each prefix of its truncations (from those a journal commit made durable,
     * which every state keeps), with everything else that allows kept; all kept. Just all kept when nothing is
     * pending. Each is one the model's cut keeps for some seed ({@link #cut}).
     */
    public synchronized List<StatePick> statePicks() {
        List<StatePick> picks = new ArrayList<>();
        List<NameChange> journal = journal();
        // In node order, the nodes with changes since their sync alone: a state's cost is what is pending.
        TreeMap<Long, Node> pending = new TreeMap<>(pendingFiles);
        if (!journaled) {
            pending.putAll(pendingNames);
        }
        for (Node n : pending.values()) {
            long id = n.id;
            if (n.dir) {
                addPrefixes(picks, id, n.nameChanges);
            } else {
                FilePages p = pages(n);
                for (int r = 0; r < p.runs().size(); r++) {
                    for (int k = p.low(r, p.committed()); k < p.runs().get(r).changes().length; k++) {
                        picks.add(new StatePick(StatePick.Kind.PAGES, id, r, k));
                    }
                }
                for (int t = p.committed(); t < p.truncations(); t++) {
                    picks.add(new StatePick(StatePick.Kind.TRUNCATIONS, id, 0, t));
                }
            }
        }
        addPrefixes(picks, 0, journal);
        if (!picks.isEmpty()) {
            picks.add(0, new StatePick(StatePick.Kind.DURABLE, 0, 0, 0));
        }
        picks.add(new StatePick(StatePick.Kind.ALL, 0, 0, 0));
        return picks;
    }

    /** Under the journaled rules the one log of name changes since the last sync, in the order made; else empty. */
    List<NameChange> journal() {
        List<NameChange> log = new ArrayList<>();
        if (journaled) {
            for (Node d : pendingNames.values()) {
                log.addAll(d.nameChanges);
            }
            log.sort((a, b) -> Long.compare(a.seq(), b.seq()));
        }
        return log;
    }

    /**
     * {@code prefix} of {@code log}, less the changes of an operation it would cut in two: a rename's removal of
     * its old name and addition of its new one, in one log, are kept together or lost together, as every Linux
     * filesystem commits them, never leaving the file under neither name (or both). Under POSIX's rules a rename
     * between two directories is in two logs, each durable at its directory's sync, as POSIX promises no more.
     */
    private static int wholeOperations(List<NameChange> log, int prefix) {
        while (prefix > 0 && prefix < log.size() && log.get(prefix - 1).op() == log.get(prefix).op()) {
            prefix--;
        }
        return prefix;
    }

    /** The prefixes of {@code log} short of all of it, ending between two operations. */
    private static void addPrefixes(List<StatePick> picks, long dir, List<NameChange> log) {
        for (int p = 0; p < log.size(); p++) {
            if (p == 0 || log.get(p - 1).op() != log.get(p).op()) {
                picks.add(new StatePick(StatePick.Kind.NAMES, dir, 0, p));
            }
        }
    }

    /** What crash state {@code pick} of the tree as it is now keeps and loses. */
    public record State(StatePick pick, String description, int lost, List<String> lostOps, String note, String digest) {
    }

    /**
     * Crash state {@code pick} of the tree as it is now: what it lost, an operation a line (as {@link #discarded()}
     * says a cut's), said in a sentence, and a digest of what it keeps: two states of one moment with the same
     * digest leave the same names, bytes and permission bits.
     */
    public synchronized State state(StatePick pick) {
        Survivor survivor = survivor(pick);
        return new State(pick, describe(pick, survivor), survivor.lost(), survivor.discardedOps(), survivor.note(),
                digest(survivor).hex());
    }

    /** Writes crash state {@code pick} of the tree as it is now into the empty directory {@code to}, as {@link #save} does a cut's. */
    public synchronized void save(StatePick pick, Path to) throws IOException {
        writeTree(survivor(pick), to);
    }

    private String describe(StatePick pick, Survivor survivor) {
        int lost = survivor.lost();
        String ops = lost == 1 ? " operation" : " operations";
        return switch (pick.kind()) {
            case DURABLE -> "only what was synced kept, the " + lost + ops + " not yet durable lost";
            case ALL -> "every operation kept";
            case NAMES -> "the last " + (lost == 1 ? "name operation" : lost + " name operations")
                    + (pick.node() == 0 ? " since the last sync" : " of directory " + relPath(nodes.get(pick.node()), null)
                    + " since its last sync") + " lost (" + (lost == 1 ? "" : "the first: ") + survivor.discardedOps().get(0)
                    + "), every write kept";
            case PAGES -> describePages(pick) + lostSaid(survivor);
            case TRUNCATIONS -> {
                FilePages p = pages(nodes.get(pick.node()));
                String of = " of the " + p.truncations() + " truncation" + (p.truncations() == 1 ? "" : "s") + " of "
                        + p.truncation(0).path() + " kept";
                yield (pick.count() == 0 ? "none" + of : "the first " + pick.count() + of) + lostSaid(survivor);
            }
        };
    }

    /** What a {@link StatePick.Kind#PAGES} state keeps of its pages: "page 0 of lock as it was after write 1 of 2". */
    private String describePages(StatePick pick) {
        FilePages p = pages(nodes.get(pick.node()));
        FilePages.Run run = p.runs().get(pick.run());
        int[] changes = run.changes();
        String what = p.onlyWrites(pick.run()) ? "write" : "change";
        String path = nodes.get(pick.node()).fileChanges.get(changes[0]).path();
        String pages = FilePages.pages(run.firstPage(), run.lastPage()) + " of " + path + " as "
                + (run.firstPage() == run.lastPage() ? "it was" : "they were");
        return pick.count() == 0 ? pages + " before " + what + " 1 of " + changes.length
                : pages + " after " + what + " " + pick.count() + " of " + changes.length;
    }

    /** The operations a state lost, the first named: what a state's description ends with. */
    private static String lostSaid(Survivor survivor) {
        int lost = survivor.lost();
        return lost == 0 ? ", nothing lost" : ", " + (lost == 1 ? "1 operation" : lost + " operations") + " lost ("
                + (lost == 1 ? "" : "the first: ") + survivor.discardedOps().get(0) + ")";
    }

    /**
     * The digest of what {@code survivor} keeps ({@link TreeSum}): each name of each directory the root reaches, with
     * what it names (a file's node, permission bits and bytes by the changes that made them; a directory's node and
     * permission bits), summed. Two states of one moment with the same digest keep the same names, bytes and bits.
     */
    private TreeSum digest(Survivor survivor) {
        TreeSum sum = TreeSum.ZERO;
        Set<Long> reached = new HashSet<>();
        List<Long> dirs = new ArrayList<>(List.of(ROOT));
        reached.add(ROOT);
        while (!dirs.isEmpty()) {
            long id = dirs.remove(dirs.size() - 1);
            for (Map.Entry<String, Long> e : survivor.entries.get(id).entrySet()) {
                Node n = nodes.get(e.getValue());
                FilePages.Kept kept = n.dir ? null : survivor.data.get(n.id);
                TreeSum part = n.dir ? syncedPart(n) : filePart(n, kept.size(), kept.pieces());
                sum = sum.plus(TreeSum.name(id, e.getKey(), n.id)).plus(part);
                if (n.dir && reached.add(n.id)) {
                    dirs.add(n.id);
                }
            }
        }
        return sum;
    }

    /** The part of name {@code name} of directory {@code dir} in {@link #names}: itself, and what it names unless that has changes not synced. */
    TreeSum namePart(long dir, String name, long id) {
        Node n = nodes.get(id);
        TreeSum part = TreeSum.name(dir, name, id);
        return n.dir || n.fileChanges.isEmpty() ? part.plus(syncedPart(n)) : part;
    }

    /** The part of node {@code n} named once, as synced: a directory's, or a file's with no change since its sync. */
    TreeSum syncedPart(Node n) {
        return n.dir ? TreeSum.dir(n.id, n.durableMode)
                : TreeSum.file(n.id, n.durableMode, n.durableFold, n.durableData.size(), 0);
    }

    /** The part of file {@code n} named once, as a state leaves it: at {@code size}, with pieces summing to {@code pieces}. */
    TreeSum filePart(Node n, long size, long pieces) {
        return TreeSum.file(n.id, n.durableMode, n.durableFold, size, pieces);
    }

    /**
     * The order and digest of each of {@code picks} (of {@link #statePicks()}, the tree as it is now): the operations
     * it loses and what {@link State#digest()} says, each found from what the state changes of the tree alone
     * ({@link StateKeys}).
     */
    synchronized List<StateKeys.Key> stateKeys(List<StatePick> picks) {
        if (names == null) {
            names = TreeSum.ZERO;
            for (Node d : nodes.values()) {
                if (d.dir) {
                    for (Map.Entry<String, Long> e : d.entries.entrySet()) {
                        names = names.plus(namePart(d.id, e.getKey(), e.getValue()));
                    }
                }
            }
        }
        return new StateKeys(this).of(picks);
    }

    /** {@link #stateKeys} of one pick, found from the whole state: what the state's own digest and loss say. */
    synchronized StateKeys.Key stateKey(StatePick pick) {
        Survivor survivor = survivor(pick);
        return new StateKeys.Key(survivor.lost(), digest(survivor));
    }

    /** The digest of every name the tree holds now, as {@link #names} keeps it. */
    TreeSum names() {
        return names;
    }

    Node nodeAt(long id) {
        return nodes.get(id);
    }

    Map<Long, Node> pendingDirs() {
        return pendingNames;
    }

    Map<Long, Node> pendingFiles() {
        return pendingFiles;
    }

    FilePages pagesOf(Node n) {
        return pages(n);
    }

    /** Writes to file {@code unit} (its node id, the inode number a program stats) fail as planned. */
    @Override
    public synchronized void failWrites(long unit, long from, long length, boolean persistent, int errno) {
        if (!nodes.containsKey(unit) || nodes.get(unit).dir) {
            throw new IllegalArgumentException("no file has node " + unit);
        }
        writeFaults.fail(unit, from, length, persistent, errno);
    }

    @Override
    public synchronized long failedWrites() {
        return writeFaults.failed();
    }

    /** Bytes written to files since their last sync: what a cut now could lose. */
    @Override
    public synchronized long unflushedBytes() {
        return logLive;
    }

    /**
     * What a cut kept: the tree to write out, each file's changes kept over its durable bytes (which no
     * longer change: the power is gone), and the bytes of file writes it kept and lost.
     */
    private record Survivor(Map<Long, TreeMap<String, Long>> entries, Map<Long, FilePages.Kept> data, long kept,
                            long discarded, String note, List<String> discardedOps, int lost) {
    }

    /**
     * Cuts the power: from now on every change fails with EIO. Returns {kept, discarded}: the bytes written
     * since their file's last sync that the cut kept and lost.
     */
    @Override
    public synchronized long[] cut(CutMode mode, long seed) {
        if (duringCut == null && !power.cutAtArmedFlush()) {
            power.requirePower();
            duringCut = freeze(mode, seed);
        } else if (duringCut == null) {
            duringCut = survivor(CutMode.FLUSHED, 0);
        }
        return new long[] {duringCut.kept, duringCut.discarded};
    }

    private Survivor freeze(CutMode mode, long seed) {
        power.freeze();
        return survivor(mode, seed);
    }

    private Survivor survivor(CutMode mode, long seed) {
        return survivor(Keeps.seeded(mode, seed));
    }

    private Survivor survivor(Keeps keeps) {
        Map<Long, TreeMap<String, Long>> entries = new HashMap<>();
        Map<Long, FilePages.Kept> data = new HashMap<>();
        long kept = 0;
        long discarded = 0;
        // Under the journaled rules, a prefix of the one log since the last sync: the changes before seq `upTo`.
        long upTo = Long.MAX_VALUE;
        if (journaled) {
            List<NameChange> log = new ArrayList<>();
            for (Node d : pendingNames.values()) {
                log.addAll(d.nameChanges);
            }
            log.sort((a, b) -> Long.compare(a.seq(), b.seq()));
            int prefix = log.isEmpty() ? 0 : wholeOperations(log, keeps.namePrefix(0, log.size()));
            upTo = prefix == log.size() ? Long.MAX_VALUE : log.get(prefix).seq();
        }
        List<String> lostToPosix = new ArrayList<>();
        // What the cut discarded, by the order it was made in; a rename's two changes are one operation.
        TreeMap<Long, String> lostOps = new TreeMap<>();
        Set<String> opsSeen = Collections.newSetFromMap(new IdentityHashMap<>());
        String nameReason = journaled ? "no sync after it" : "directory not synced";
        // In node order, so that a seed draws the same subset for the same workload.
        for (long id = ROOT; id < nextId; id++) {
            Node n = nodes.get(id);
            if (n == null) {
                continue;
            }
            if (n.dir) {
                TreeMap<String, Long> e = new TreeMap<>(n.durableEntries);
                if (journaled) {
                    for (NameChange c : n.nameChanges) {
                        if (c.seq() < upTo) {
                            c.applyTo(e);
                        } else if (opsSeen.add(c.op())) {
                            lostOps.put(c.order(), c.op() + ", " + nameReason);
                        }
                    }
                } else {
                    int prefix = n.nameChanges.isEmpty() ? 0
                            : wholeOperations(n.nameChanges, keeps.namePrefix(id, n.nameChanges.size()));
                    for (int i = 0; i < n.nameChanges.size(); i++) {
                        NameChange c = n.nameChanges.get(i);
                        if (i < prefix) {
                            c.applyTo(e);
                        } else {
                            if (c.seq() < seqAtLastSync) {
                                lostToPosix.add(describe(n, c));
                            }
                            if (opsSeen.add(c.op())) {
                                lostOps.put(c.order(), c.op() + ", " + nameReason);
                            }
                        }
                    }
                }
                entries.put(id, e);
            } else {
                FilePages p = pages(n);
                int m = keeps.truncations(id, p);
                int[] k = new int[p.runs().size()];
                for (int r = 0; r < k.length; r++) {
                    k[r] = keeps.pagePrefix(id, p, r, p.low(r, m), p.high(r, m));
                }
                FilePages.Kept b = p.keep(m, k);
                for (FilePages.Piece piece : b.kept()) {
                    kept += piece.change().isWrite() ? piece.to() - piece.from() : 0;
                }
                // A run of writes lost whole, each starting where the one before ended, said as one.
                Node file = n;
                FilePages.lostGroups(b, new FilePages.LostGroups() {
                    @Override
                    public void wholeWrites(FileChange first, long end) {
                        lostOps.put(first.order(), describeWrites(first, end) + early(file, first));
                    }

                    @Override
                    public void partOf(FileChange change, long lostBytes, List<FilePages.Piece> pieces) {
                        lostOps.put(change.order(), describePart(change, lostBytes, pieces) + early(file, change));
                    }
                });
                for (FilePages.Piece piece : b.lost()) {
                    discarded += piece.to() - piece.from();
                }
                for (int t = m; t < p.truncations(); t++) {
                    FileChange c = p.truncation(t);
                    lostOps.put(c.order(), "truncate " + c.path() + " to " + c.newSize() + " bytes, file not synced");
                }
                data.put(id, b);
            }
        }
        String note = "";
        if (!lostToPosix.isEmpty()) {
            int shown = Math.min(lostToPosix.size(), 5);
            note = "the POSIX rules lost " + lostToPosix.size() + " name change" + (lostToPosix.size() == 1 ? "" : "s")
                    + " whose directory was never synced after " + (lostToPosix.size() == 1 ? "it" : "them") + " ("
                    + String.join(", ", lostToPosix.subList(0, shown)) + (shown < lostToPosix.size() ? ", ..." : "")
                    + "); a later fsync made " + (lostToPosix.size() == 1 ? "it" : "them")
                    + " durable on ext4, xfs and btrfs, whose journal commits every name change before any sync:"
                    + " those would have kept " + (lostToPosix.size() == 1 ? "it" : "them");
        }
        if (discarded > 0) {
            // Linux sends FUSE_SYNCFS to virtiofs only (fs/fuse: fc->sync_fs): a syncfs(2) or sync(2) on this mount
            // never reaches the model, which a real filesystem would have made these bytes durable at.
            note = (note.isEmpty() ? "" : note + "; ") + "the file model sees no syncfs(2) or sync(2) (the kernel sends"
                    + " FUSE_SYNCFS to virtiofs only): where the program relied on one, ext4, xfs and btrfs would have kept"
                    + " what this cut discarded";
        }
        List<String> ops = new ArrayList<>(lostOps.values());
        int lost = ops.size();
        if (ops.size() > DISCARDED_LISTED) {
            int more = ops.size() - DISCARDED_LISTED;
            ops = new ArrayList<>(ops.subList(0, DISCARDED_LISTED));
            ops.add("and " + more + " more");
        }
        return new Survivor(entries, data, kept, discarded, note, List.copyOf(ops), lost);
    }

    /** The most operations a cut lists as discarded; past them, one entry says how many more. */
    static final int DISCARDED_LISTED = 1000;

    private static String describeWrites(FileChange first, long end) {
        return (end - first.offset()) + " bytes at offset " + first.offset() + " of " + first.path() + ", file not synced";
    }

    /**
     * Where ext4 would have kept the lost write {@code c} of file {@code n}: it started writing it early and a sync of
     * anything came after; else nothing.
     */
    private String early(Node n, FileChange c) {
        if (c.order() >= n.earlyBefore || n.earlyBefore > orderAtLastSync) {
            return "";
        }
        return "; ext4 starts writing a file " + n.earlyWhy + " (auto_da_alloc) and a later sync of anything"
                + " commits it: ext4 would have kept these bytes, other filesystems need not";
    }

    /** A write of which a cut lost the part on some pages, kept on others: which pages lost it. */
    private static String describePart(FileChange c, long lostBytes, List<FilePages.Piece> pieces) {
        List<String> pages = new ArrayList<>();
        for (FilePages.Piece piece : pieces) {
            pages.add(FilePages.pages(piece.from() / FilePages.PAGE, (piece.to() - 1) / FilePages.PAGE));
        }
        return lostBytes + " of the " + c.length() + " bytes at offset " + c.offset() + " of " + c.path() + " ("
                + String.join(", ", pages) + "), file not synced";
    }

    /** File {@code n}'s changes since its last sync, page by page, made once for the tree as it is now. */
    private FilePages pages(Node n) {
        if (pagesAt != fileEdits) {
            pages.clear();
            pagesAt = fileEdits;
        }
        return pages.computeIfAbsent(n.id, id -> FilePages.of(List.copyOf(n.fileChanges), n.durableData.size(),
                n.committedTruncations));
    }

    /** Where name {@code name} of directory {@code d} is, from the root, without a leading '/'; {@code d}'s own path for a null name. */
    private String relPath(Node d, String name) {
        StringBuilder out = new StringBuilder(name == null ? "" : name);
        for (Node at = d; at.id != ROOT; at = nodes.get(at.lastDir)) {
            if (out.length() > 0) {
                out.insert(0, '/');
            }
            out.insert(0, at.lastName);
        }
        return out.length() == 0 ? "." : out.toString();
    }

    /** Where file {@code n} is now, by the name last given to it, cached until a rename or a link. */
    private String filePath(Node n) {
        if (n.pathAt != renames || n.pathCache == null) {
            n.pathCache = relPath(nodes.get(n.lastDir), n.lastName);
            n.pathAt = renames;
        }
        return n.pathCache;
    }

    /** What the last cut discarded, an operation a line in the order made, with why it was not durable; empty before a cut. */
    @Override
    public synchronized List<String> discarded() {
        return duringCut == null ? List.of() : duringCut.discardedOps();
    }

    /** A name change of directory {@code d}, as the note of what the POSIX rules lost says it. */
    private String describe(Node d, NameChange c) {
        String path = path(d) + c.name();
        Node n = c.node() == 0 ? null : nodes.get(c.node());
        return c.node() == 0 ? "the removal of " + path : (n != null && n.dir ? "directory " : "") + path;
    }

    /** Where directory {@code d} is now, from the root, ending in '/'; "?/" for a directory no longer named. */
    private String path(Node d) {
        StringBuilder out = new StringBuilder();
        for (Node at = d; at.id != ROOT; at = nodes.get(at.parent)) {
            Node parent = nodes.get(at.parent);
            String name = null;
            for (Map.Entry<String, Long> e : parent.entries.entrySet()) {
                if (e.getValue() == at.id) {
                    name = e.getKey();
                }
            }
            out.insert(0, (name == null ? "?" : name) + "/");
            if (name == null) {
                break;
            }
        }
        return "/" + out;
    }

    /** What the last cut lost that only these rules lose: the POSIX floor's names a journaled filesystem keeps; empty else. */
    @Override
    public synchronized String cutNote() {
        return duringCut == null ? "" : duringCut.note();
    }

    /**
     * Writes what survived the cut into the empty directory {@code to}: the durable tree from the root, each
     * file with the permission bits of its last sync. A file with two surviving names gets two hard links;
     * a directory that survived under two names (renamed, both parents synced, neither since) appears under
     * the first.
     */
    @Override
    public synchronized void save(Path to) throws IOException {
        if (duringCut == null) {
            throw new IllegalStateException("the power is on: nothing has survived anything yet");
        }
        writeTree(duringCut, to);
    }

    private void writeTree(Survivor survivor, Path to) throws IOException {
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
     * A name of a crash state as it is written out ({@link #layout}): its path from the state's directory, the node it
     * names, the permission bits; for a file, what it keeps ({@code kept}) and what its bytes are made of
     * ({@code content}: its durable bytes' changes folded and their size, its size, and each piece kept of its changes
     * since, by change, from and to: the same content, the same bytes); for a file's name after the first, the first's
     * path ({@code linkOf}), which it is a hard link to.
     */
    record Written(String path, long node, boolean dir, int mode, String linkOf, FilePages.Kept kept, long[] content) {
    }

    /**
     * Crash state {@code pick} of the tree as it is now, as {@link #save(StatePick, Path)} writes it out: its names in
     * the order written, each directory's sorted, a directory's before those in it. A directory under a second name
     * is written under the first alone; a file's second name is a link to its first.
     */
    synchronized List<Written> layout(StatePick pick) {
        return layout(survivor(pick));
    }

    private List<Written> layout(Survivor survivor) {
        if (versions == Versions.SIZES) {
            throw new IllegalStateException("a tree that keeps its files' sizes alone writes no state out");
        }
        List<Written> out = new ArrayList<>();
        Map<Long, String> first = new HashMap<>();
        first.put(ROOT, "");
        layoutDir(survivor, ROOT, "", first, out);
        return out;
    }

    private void layoutDir(Survivor survivor, long id, String dir, Map<Long, String> first, List<Written> out) {
        for (Map.Entry<String, Long> e : survivor.entries.get(id).entrySet()) {
            Node n = nodes.get(e.getValue());
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
            FilePages.Kept kept = survivor.data.get(n.id);
            if (earlier == null) {
                first.put(n.id, path);
            }
            out.add(new Written(path, n.id, false, n.durableMode, earlier, kept, content(n, kept)));
        }
    }

    /** What file {@code n}'s bytes are made of as {@code kept} leaves it: {@link Written#content()}. */
    private static long[] content(Node n, FilePages.Kept kept) {
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
    synchronized void writeName(Written w, Path p, Path first) throws IOException {
        if (w.dir()) {
            Files.createDirectory(p);
        } else if (first != null) {
            Files.createLink(p, first);
        } else {
            writeFile(nodes.get(w.node()), w.kept(), p);
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

    /**
     * Writes file {@code n} as it survived into {@code p}: its durable bytes with the pieces of the changes kept
     * applied in order, a write's its bytes, a truncation's zeros, at the size kept.
     */
    private void writeFile(Node n, FilePages.Kept kept, Path p) throws IOException {
        try (FileChannel out = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            long size = kept.size();
            n.durableData.copyTo(out);
            for (FilePages.Piece piece : kept.kept()) {
                FileChange c = piece.change();
                if (c.isWrite()) {
                    ByteBuffer bytes = c.bytesIn(log);
                    bytes.limit(bytes.position() + (int) (piece.to() - c.offset()));
                    bytes.position(bytes.position() + (int) (piece.from() - c.offset()));
                    for (long at = piece.from(); bytes.hasRemaining(); ) {
                        at += out.write(bytes, at);
                    }
                } else {
                    // Only what the file holds and the size kept shows: past them it reads as zeros already.
                    ByteBuffer zeros = ByteBuffer.allocate(64 << 10);
                    for (long at = piece.from(), end = Math.min(piece.to(), Math.min(out.size(), size)); at < end; ) {
                        zeros.clear().limit((int) Math.min(zeros.capacity(), end - at));
                        at += out.write(zeros, at);
                    }
                }
            }
            if (out.size() > size) {
                out.truncate(size);
            } else if (out.size() < size) {
                out.write(ByteBuffer.allocate(1), size - 1); // the size, the rest a hole that reads as zeros
            }
        }
    }

    /** Frees the files it keeps its bytes in; the tree is not used again. */
    @Override
    public synchronized void close() {
        try {
            stopRecording();
        } finally {
            try {
                log.close();
            } finally {
                store.close();
            }
        }
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    /**
     * A version of a file's bytes, in a sparse file of the {@link FileStore} made on its first write; the
     * heap holds its size (past what the file holds, zeros).
     */
    static final class Bytes {
        /** Where its bytes are; null when its size alone is kept. */
        private final FileStore store;
        private final String name;
        private long size;
        private boolean made;

        Bytes(FileStore store, String name) {
            this.store = store;
            this.name = name;
        }

        long size() {
            return size;
        }

        /** Whether it keeps its size alone: its bytes are not kept, and read as zeros. */
        boolean sizesOnly() {
            return store == null;
        }

        /** As a write ending at {@code end} would set its size, its bytes left as they are. */
        void extend(long end) {
            size = Math.max(size, end);
        }

        void write(long offset, ByteBuffer src) {
            long end = offset + src.remaining();
            if (store == null) {
                src.position(src.limit());
                extend(end);
                return;
            }
            store.write(name, offset, src);
            made = true;
            size = Math.max(size, end);
        }

        void truncate(long newSize) {
            if (made && newSize < size) {
                store.truncate(name, newSize);
            }
            size = newSize;
        }

        int read(long offset, ByteBuffer out) {
            if (offset >= size) {
                return 0;
            }
            int n = (int) Math.min(out.remaining(), size - offset);
            int limit = out.limit();
            out.limit(out.position() + n);
            if (made) {
                store.read(name, offset, out);
            } else {
                StoreFile.zeros(out);
            }
            out.limit(limit);
            return n;
        }

        /** Copies its bytes into {@code out} from its start (not its size: what lies past them reads as zeros). */
        void copyTo(FileChannel out) throws IOException {
            if (made) {
                store.copyTo(name, size, out);
            }
        }
    }
}

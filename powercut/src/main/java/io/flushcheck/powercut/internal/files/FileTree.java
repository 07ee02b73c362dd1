package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.model.PowerSwitch;
import io.flushcheck.powercut.internal.model.StoreFile;
import io.flushcheck.powercut.internal.model.SwitchedModel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
 *
 * <p>It is the model object; its parts each hold one concern: {@link Namespace} (names, directories, links),
 * {@link FileData} (the files' bytes, the change log, the blocks they take), {@link SyncRules} (what a sync makes
 * durable under the journaled or the POSIX rules), {@link TreeRecorder} (the recording {@link TreeReplay} plays
 * again), {@link StatePicks} and {@link TreeDigests} (its crash states, said and summed), {@link SurvivorBuilder}
 * (what a cut keeps) and {@link TreeWriter} (a crash state written out as real files).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileTree extends SwitchedModel {

    /** The root directory's node. */
    public static final long ROOT = 1;

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

    /** What crash state {@code pick} of the tree as it is now keeps and loses. */
    public record State(StatePick pick, String description, int lost, List<String> lostOps, String note, String digest) {
    }

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

    private final Namespace namespace;
    private final FileData data;
    private final SyncRules rules;
    private final TreeDigests digests = new TreeDigests(this);
    private final TreeRecorder recorder = new TreeRecorder(this);
    private final StatePicks picks = new StatePicks(this);
    private final TreeWriter writer = new TreeWriter(this);
    /** What the cut kept, however the power went; null while it is on, and after an armed sync until {@link #cut}. */
    private Survivor duringCut;
    /** The journaled rules (one ordered namespace log, committed by any sync), else the POSIX floor. */
    private final boolean journaled;
    /** The versions of its files' bytes it keeps. */
    private final Versions versions;
    /** Operations (name changes, writes, truncations) made so far, numbered in the order made. */
    private long order;

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
        this.journaled = journaled;
        this.versions = versions;
        this.data = new FileData(this, dir, capacity, versions);
        this.namespace = new Namespace(this, data.store(), versions);
        this.rules = new SyncRules(this, journaled);
        TreeNode root = namespace.newNode(true, 0755, uid, gid);
        root.links = 2;
    }

    /** True under the journaled rules, false under the POSIX floor. */
    public boolean journaled() {
        return journaled;
    }

    /** The bytes the tree may hold: a write past them fails with ENOSPC. */
    public long capacity() {
        return data.capacity();
    }

    /** The bytes its files take now, in 4 KiB blocks: what counts against {@link #capacity()}. */
    public synchronized long used() {
        return data.used();
    }

    /** The node {@code id}; ENOENT when there is none. */
    public synchronized TreeNode node(long id) throws Errno {
        return namespace.node(id);
    }

    /** The node {@code name} names in directory {@code parent}. */
    public synchronized TreeNode lookup(long parent, String name) throws Errno {
        return namespace.lookup(parent, name);
    }

    /** The names in directory {@code id}, sorted, with their nodes. */
    public synchronized List<Map.Entry<String, TreeNode>> list(long id) throws Errno {
        return namespace.list(id);
    }

    /** Creates a file or directory {@code name} in {@code parent}: EEXIST when the name is taken. */
    public synchronized TreeNode create(long parent, String name, boolean dir, int mode, int uid, int gid)
            throws Errno {
        return namespace.create(parent, name, dir, mode, uid, gid);
    }

    /** A new name {@code name} in {@code parent} for the file {@code id}. */
    public synchronized TreeNode link(long id, long parent, String name) throws Errno {
        return namespace.link(id, parent, name);
    }

    /** Removes the name {@code name} from {@code parent}: a file's ({@code dir} false) or an empty directory's. */
    public synchronized void remove(long parent, String name, boolean dir) throws Errno {
        namespace.remove(parent, name, dir);
    }

    /**
     * Renames {@code name} in {@code parent} to {@code newName} in {@code newParent}, replacing a file there,
     * or an empty directory; with {@code noReplace}, EEXIST when the new name is taken.
     */
    public synchronized void rename(long parent, String name, long newParent, String newName, boolean noReplace)
            throws Errno {
        namespace.rename(parent, name, newParent, newName, noReplace);
    }

    /** Writes the bytes remaining in {@code data} at {@code offset} of file {@code id}, consuming them. */
    public synchronized void write(long id, long offset, ByteBuffer data) throws Errno {
        this.data.write(id, offset, data);
    }

    /** Reads file {@code id} at {@code offset} into the space remaining in {@code out}; returns the bytes read. */
    public synchronized int read(long id, long offset, ByteBuffer out) throws Errno {
        return data.read(id, offset, out);
    }

    /** Sets a file's size, cutting it or extending it with zeros. */
    public synchronized void truncate(long id, long size) throws Errno {
        data.truncate(id, size);
    }

    /**
     * A close(2) of file {@code id}: where it was truncated to 0 since its last close, ext4 starts writing what it
     * holds now (auto_da_alloc, on by default), and the next commit of its journal, at a sync of anything, keeps it.
     * The model keeps no more for it (xfs and other filesystems need not): what a cut loses of those writes says so.
     */
    public synchronized void closed(long id) {
        TreeNode n = namespace.nodeAt(id);
        if (n == null || n.dir || !n.truncatedToZero || power.frozen()) {
            return;
        }
        n.truncatedToZero = false;
        rules.startedEarly(n, "at its close after a truncation to 0");
        TreeLog recording = recorder.log();
        if (recording != null) {
            recording.closed(id);
        }
    }

    /** Sets the permission bits, owner or times that {@code chmod}, {@code chown} and {@code utimes} change. */
    public synchronized void setAttributes(long id, Integer mode, Integer uid, Integer gid, Long mtime) throws Errno {
        namespace.setAttributes(id, mode, uid, gid, mtime);
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
        TreeNode n = namespace.node(id);
        int refused = power.arrive(seed -> duringCut = freeze(CutMode.SUBSET, seed));
        if (refused != PowerSwitch.CARRY_OUT) {
            return refused;
        }
        rules.sync(n);
        power.completed();
        TreeLog recording = recorder.log();
        if (recording != null) {
            recording.sync(id, power.flushes());
        }
        return 0;
    }

    /**
     * Makes everything durable, as a sync of every file and directory would, without counting a flush: where a
     * recording starts ({@link #record}), as the block model's starts after a sync of the whole filesystem.
     */
    synchronized void commitAll() {
        rules.commitAll();
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
        if (recorder.log() != null) {
            throw new IllegalStateException("the tree is being recorded already");
        }
        power.requirePower();
        commitAll();
        recorder.start(file, journaled, power.flushes());
    }

    /** Ends the recording {@link #record} started; false when none was. */
    public synchronized boolean stopRecording() {
        return recorder.stop();
    }

    /** A new file with no name, as one a program unlinked while it held it open: what a recording may start with. */
    synchronized TreeNode unnamed(int mode) {
        return namespace.newNode(false, mode, 0, 0);
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
        return picks.all();
    }

    /**
     * Crash state {@code pick} of the tree as it is now: what it lost, an operation a line (as {@link #discarded()}
     * says a cut's), said in a sentence, and a digest of what it keeps: two states of one moment with the same
     * digest leave the same names, bytes and permission bits. The digest is {@code key}'s, which {@link #stateKeys}
     * found for {@code pick} from its changes alone (StateKeysTests compares the two over random workloads); with
     * {@code key} null, it is found from the whole state, a walk of every name it keeps.
     */
    synchronized State state(StatePick pick, StateKeys.Key key) {
        Survivor survivor = survivor(pick);
        return new State(pick, picks.describe(pick, survivor), survivor.lost(), survivor.discardedOps(),
                survivor.note(), (key == null ? digests.digest(survivor) : key.digest()).hex());
    }

    /** Writes crash state {@code pick} of the tree as it is now into the empty directory {@code to}, as {@link #save} does a cut's. */
    public synchronized void save(StatePick pick, Path to) throws IOException {
        writer.writeTree(survivor(pick), to);
    }

    /**
     * Crash state {@code pick} of the tree as it is now, as {@link #save(StatePick, Path)} writes it out: its names in
     * the order written, each directory's sorted, a directory's before those in it. A directory under a second name
     * is written under the first alone; a file's second name is a link to its first.
     */
    synchronized List<TreeWriter.Written> layout(StatePick pick) {
        return writer.layout(survivor(pick));
    }

    /** Writes {@code w} of a {@link #layout} at {@code p}: a directory, a file's bytes, or a link to {@code first}. */
    synchronized void writeName(TreeWriter.Written w, Path p, Path first) throws IOException {
        writer.writeName(w, p, first);
    }

    /**
     * Writes what file {@code w} of a {@link #layout} keeps into file {@code id} of {@code to}, empty, as
     * {@link #writeName} would into a file of the host.
     */
    synchronized void copyFile(TreeWriter.Written w, FileTree to, long id) throws IOException {
        writer.copyFile(w, to, id);
    }

    /**
     * The order and digest of each of {@code picks} (of {@link #statePicks()}, the tree as it is now): the operations
     * it loses and what {@link State#digest()} says, each found from what the state changes of the tree alone
     * ({@link StateKeys}).
     */
    synchronized List<StateKeys.Key> stateKeys(List<StatePick> picks) {
        digests.start();
        return new StateKeys(this).of(picks);
    }

    /** {@link #stateKeys} of one pick, found from the whole state: what the state's own digest and loss say. */
    synchronized StateKeys.Key stateKey(StatePick pick) {
        Survivor survivor = survivor(pick);
        return new StateKeys.Key(survivor.lost(), digests.digest(survivor));
    }

    /** Writes to file {@code unit} (its node id, the inode number a program stats) fail as planned. */
    @Override
    public synchronized void failWrites(long unit, long from, long length, boolean persistent, int errno) {
        namespace.faultedFile(unit);
        data.writeFaults().fail(unit, from, length, persistent, errno);
    }

    @Override
    public synchronized long failedWrites() {
        return data.writeFaults().failed();
    }

    /**
     * Writes to file {@code unit} (its node id) are lost as planned: acknowledged and read back with the power on,
     * never durable.
     */
    @Override
    public synchronized void loseWrites(long unit, long from, long length, boolean persistent) {
        namespace.faultedFile(unit);
        data.writeLies().lose(unit, from, length, persistent);
    }

    /** Writes to file {@code unit} land on file {@code targetUnit} (its node id) as planned. */
    @Override
    public synchronized void misdirectWrites(long unit, long from, long length, boolean persistent, long targetUnit,
                                             long targetFrom) {
        namespace.faultedFile(unit);
        namespace.faultedFile(targetUnit);
        data.writeLies().misdirect(unit, from, length, persistent, targetUnit, targetFrom);
    }

    /**
     * Writes to the file named {@code path} (from the root, '/' between names) are lost as planned, the lie armed on
     * its node at the first write it gets by that name: a fault planned before the workload makes the file.
     */
    @Override
    public synchronized void loseWritesTo(String path, long from, long length, boolean persistent) {
        data.planLie(new FileData.NamedLie(path, from, length, persistent, null, 0));
    }

    /**
     * As {@link #loseWritesTo}, the bytes landing at {@code targetFrom} of the file named {@code targetPath}, found
     * by that name as the lie is armed: bytes for a file that has no such name then land in no file.
     */
    @Override
    public synchronized void misdirectWritesTo(String path, long from, long length, boolean persistent, String targetPath,
                                               long targetFrom) {
        data.planLie(new FileData.NamedLie(path, from, length, persistent, targetPath, targetFrom));
    }

    @Override
    public synchronized long lostWrites() {
        return data.writeLies().lost();
    }

    @Override
    public synchronized long misdirectedWrites() {
        return data.writeLies().misdirected();
    }

    /**
     * Reads of file {@code unit} (its node id) fail as planned, until the bytes are rewritten when persistent. A bad
     * sector is a place, as on a drive: the range takes the whole 4 KiB blocks of the file it reaches into.
     */
    @Override
    public synchronized void failReads(long unit, long from, long length, boolean persistent, int errno) {
        namespace.faultedFile(unit);
        data.failReads(unit, from, length, persistent, errno);
    }

    @Override
    public synchronized long failedReads() {
        return data.readFaults().failed();
    }

    /** Flips a bit of a byte of file {@code unit} (its node id) where it is durable and where it reads now: bit rot. */
    @Override
    public synchronized void flipBit(long unit, long offset, int bit) {
        if (bit < 0 || bit > 7) {
            throw new IllegalArgumentException("a byte has bits 0 to 7, not " + bit);
        }
        data.changeAtRest(atRest(unit), offset, 1, b -> (byte) (b ^ (1 << bit)));
    }

    /** Zeros bytes of file {@code unit} (its node id) where they are durable and where they read now. */
    @Override
    public synchronized void zero(long unit, long from, long length) {
        data.changeAtRest(atRest(unit), from, length, b -> (byte) 0);
    }

    /** File {@code unit}, whose data at rest may change: with the power on and no recording under way. */
    private TreeNode atRest(long unit) {
        TreeNode n = namespace.faultedFile(unit);
        if (power.frozen()) {
            throw new IllegalStateException("the power is cut: what survived is the directory written out, not this tree");
        }
        if (recorder.log() != null) {
            throw new IllegalStateException("the tree is recording a workload, whose crash states would not hold the"
                    + " change: change data at rest before or after the recording");
        }
        return n;
    }

    /** Bytes written to files since their last sync: what a cut now could lose. */
    @Override
    public synchronized long unflushedBytes() {
        return data.unflushedBytes();
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
        return new long[] {duringCut.kept(), duringCut.discarded()};
    }

    private Survivor freeze(CutMode mode, long seed) {
        power.freeze();
        return survivor(mode, seed);
    }

    private Survivor survivor(CutMode mode, long seed) {
        return survivor(Keeps.seeded(mode, seed));
    }

    private Survivor survivor(Keeps keeps) {
        return SurvivorBuilder.of(this, keeps);
    }

    /** What the last cut discarded, an operation a line in the order made, with why it was not durable; empty before a cut. */
    @Override
    public synchronized List<String> discarded() {
        return duringCut == null ? List.of() : duringCut.discardedOps();
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
        writer.writeTree(duringCut, to);
    }

    /** Frees the files it keeps its bytes in; the tree is not used again. */
    @Override
    public synchronized void close() {
        try {
            stopRecording();
        } finally {
            data.close();
        }
    }

    static long now() {
        return System.currentTimeMillis() / 1000;
    }

    /** The power switch its parts check: a change fails with EIO once the power is gone. */
    PowerSwitch power() {
        return power;
    }

    /** Numbers the next operation (name change, write, truncation) in the order made. */
    long nextOrder() {
        return order++;
    }

    /** Operations made so far. */
    long order() {
        return order;
    }

    Versions versions() {
        return versions;
    }

    Namespace namespace() {
        return namespace;
    }

    FileData data() {
        return data;
    }

    SyncRules rules() {
        return rules;
    }

    TreeDigests digests() {
        return digests;
    }

    TreeRecorder recorder() {
        return recorder;
    }
}

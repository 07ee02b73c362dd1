package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apiguardian.api.API;

/** A file or directory: what the kernel sees now, what is durable, and the changes between. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TreeNode {
    final long id;
    final boolean dir;
    int mode;
    int durableMode;
    int uid;
    int gid;
    int links;
    long mtime;
    long ctime;
    final FileBytes data;
    final FileBytes durableData;
    final List<FileChange> fileChanges;
    /**
     * The first truncations of {@link #fileChanges} a sync of another node made durable (the journaled rules
     * commit every size change before any sync): their sizes, and the pages they cut, survive every cut.
     */
    int committedTruncations;
    /** Its pages as {@link FileData#pages} made them last: kept while they are of its changes as they are. */
    FilePages pages;
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
    long lastDir = FileTree.ROOT;
    /** Where the file is now, by the name last given to it, as of the tree's renames {@code pathAt}. */
    String pathCache;
    long pathAt = -1;

    TreeNode(long id, boolean dir, int mode, int uid, int gid, long now, FileStore store, FileTree.Versions versions) {
        this.id = id;
        this.dir = dir;
        this.mode = mode;
        this.durableMode = mode;
        this.uid = uid;
        this.gid = gid;
        this.mtime = now;
        this.ctime = now;
        this.data = dir ? null : new FileBytes(versions == FileTree.Versions.ALL ? store : null, "n" + id);
        this.durableData = dir ? null : new FileBytes(versions == FileTree.Versions.SIZES ? null : store, "n" + id + "-durable");
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

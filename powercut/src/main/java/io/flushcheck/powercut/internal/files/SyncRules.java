package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a sync makes durable in a {@link FileTree}, under one of its two rules, and what is pending until one does.
 * Journaled, as ext4, xfs and btrfs: a sync of anything commits every name change made before it, in one ordered log
 * across directories, every permission change and every truncation, with the synced file's data. POSIX: a sync of a
 * file makes its data, size and permission bits durable; of a directory, its names. Besides, what ext4 starts writing
 * early (auto_da_alloc), which its next commit keeps: what a cut's description says of the writes it lost.
 */
final class SyncRules {

    private final FileTree tree;
    /** The journaled rules (one ordered namespace log, committed by any sync), else the POSIX floor. */
    private final boolean journaled;
    /** Directories with name changes not yet durable, and nodes whose permission bits changed since they were. */
    private final Map<Long, TreeNode> pendingNames = new TreeMap<>();
    private final Map<Long, TreeNode> pendingModes = new TreeMap<>();
    /** Under the journaled rules, files with truncations no sync has committed yet. */
    private final Map<Long, TreeNode> pendingTruncations = new TreeMap<>();
    /** Files with changes since their last sync. */
    private final Map<Long, TreeNode> pendingFiles = new TreeMap<>();
    /** The tree's name changes at the last sync of anything: a change before it a journaled filesystem has committed. */
    private long seqAtLastSync;
    /** The tree's operations at the last sync of anything. */
    private long orderAtLastSync;

    SyncRules(FileTree tree, boolean journaled) {
        this.tree = tree;
        this.journaled = journaled;
    }

    /** Directories with name changes not yet durable. */
    Map<Long, TreeNode> pendingDirs() {
        return pendingNames;
    }

    /** Files with changes since their last sync. */
    Map<Long, TreeNode> pendingFiles() {
        return pendingFiles;
    }

    /** The tree's name changes made before its last sync of anything. */
    long seqAtLastSync() {
        return seqAtLastSync;
    }

    /** Directory {@code d}'s names changed. */
    void namesChanged(TreeNode d) {
        pendingNames.put(d.id, d);
    }

    /** Node {@code n}'s permission bits changed. */
    void modeChanged(TreeNode n) {
        pendingModes.put(n.id, n);
    }

    /** File {@code n} is about to change: from now on its part of the tree's digest is its states', not the tree's. */
    void pending(TreeNode n) {
        if (n.fileChanges.isEmpty()) {
            tree.digests().fileChanging(n);
            pendingFiles.put(n.id, n);
        }
    }

    /** File {@code n} was truncated: under the journaled rules the next sync of anything commits its size. */
    void truncated(TreeNode n) {
        if (journaled) {
            pendingTruncations.put(n.id, n);
        }
    }

    /** A sync of node {@code n}: what it makes durable under these rules becomes so. */
    void sync(TreeNode n) {
        if (journaled) {
            // One ordered log: every name change and permission change so far commits with this sync.
            for (TreeNode d : pendingNames.values()) {
                commitNames(d);
            }
            pendingNames.clear();
            for (TreeNode m : pendingModes.values()) {
                modeDurable(m);
            }
            pendingModes.clear();
            // A size change is metadata in the same journal: committed too, the files' data left to the page rule.
            if (!pendingTruncations.isEmpty()) {
                for (TreeNode f : pendingTruncations.values()) {
                    f.committedTruncations = (int) f.fileChanges.stream().filter(c -> !c.isWrite()).count();
                }
                pendingTruncations.clear();
            }
        } else if (n.dir) {
            commitNames(n);
            pendingNames.remove(n.id);
        }
        if (!n.dir) {
            commitData(n);
        }
        modeDurable(n);
        seqAtLastSync = tree.namespace().nameSeq();
        orderAtLastSync = tree.order();
    }

    /**
     * Makes everything durable, as a sync of every file and directory would, without counting a flush: where a
     * recording starts, as the block model's starts after a sync of the whole filesystem.
     */
    void commitAll() {
        for (TreeNode d : pendingNames.values()) {
            commitNames(d);
        }
        pendingNames.clear();
        for (TreeNode n : tree.namespace().all()) {
            if (!n.dir) {
                commitData(n);
            }
            modeDurable(n);
        }
        pendingModes.clear();
        seqAtLastSync = tree.namespace().nameSeq();
    }

    private static void commitNames(TreeNode d) {
        for (NameChange c : d.nameChanges) {
            c.applyTo(d.durableEntries);
        }
        d.nameChanges.clear();
    }

    /** Makes file {@code n}'s changes durable. */
    private void commitData(TreeNode n) {
        boolean changed = !n.fileChanges.isEmpty();
        tree.data().commit(n);
        pendingTruncations.remove(n.id);
        pendingFiles.remove(n.id);
        if (changed) {
            tree.digests().fileSynced(n);
        }
    }

    /** Makes node {@code n}'s permission bits durable. */
    private void modeDurable(TreeNode n) {
        if (n.durableMode != n.mode) {
            tree.digests().modeDurable(n);
        }
    }

    /** Under the journaled rules the one log of name changes since the last sync, in the order made; else empty. */
    List<NameChange> journal() {
        List<NameChange> log = new ArrayList<>();
        if (journaled) {
            for (TreeNode d : pendingNames.values()) {
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
    static int wholeOperations(List<NameChange> log, int prefix) {
        while (prefix > 0 && prefix < log.size() && log.get(prefix - 1).op() == log.get(prefix).op()) {
            prefix--;
        }
        return prefix;
    }

    /**
     * ext4 starts writing file {@code n} now ({@code why}, auto_da_alloc, on by default): the next commit of its
     * journal, at a sync of anything, keeps the writes made before.
     */
    void startedEarly(TreeNode n, String why) {
        n.earlyBefore = tree.order();
        n.earlyWhy = why;
    }

    /**
     * Where ext4 would have kept the lost write {@code c} of file {@code n}: it started writing it early and a sync of
     * anything came after; else nothing.
     */
    String early(TreeNode n, FileChange c) {
        if (c.order() >= n.earlyBefore || n.earlyBefore > orderAtLastSync) {
            return "";
        }
        return "; ext4 starts writing a file " + n.earlyWhy + " (auto_da_alloc) and a later sync of anything"
                + " commits it: ext4 would have kept these bytes, other filesystems need not";
    }
}

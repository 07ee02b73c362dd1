package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The digests of a {@link FileTree}'s crash states ({@link TreeSum}): of what one state keeps, summed over its names,
 * and of every name the tree holds now ({@link #names()}), kept as the tree changes once asked for, from which
 * {@link StateKeys} finds each state's digest by what the state changes alone.
 */
final class TreeDigests {

    private final FileTree tree;
    /**
     * The digest of every name the tree holds, with what it names, a file with changes not yet synced left out: kept
     * as the tree changes once a crash state's digest was asked for ({@link #start}), null before.
     */
    private TreeSum names;

    TreeDigests(FileTree tree) {
        this.tree = tree;
    }

    /** Starts keeping {@link #names()}, summed from the tree as it is now, unless it is kept already. */
    void start() {
        if (names != null) {
            return;
        }
        names = TreeSum.ZERO;
        for (TreeNode d : tree.namespace().all()) {
            if (d.dir) {
                for (Map.Entry<String, Long> e : d.entries.entrySet()) {
                    names = names.plus(namePart(d.id, e.getKey(), e.getValue()));
                }
            }
        }
    }

    /** The digest of every name the tree holds now; null before {@link #start}. */
    TreeSum names() {
        return names;
    }

    /** Name {@code name} of directory {@code d} is about to name {@code id} (0: nothing) in place of what it names now. */
    void nameSet(TreeNode d, String name, long id) {
        if (names != null) {
            Long before = d.entries.get(name);
            names = names.minus(before == null ? TreeSum.ZERO : namePart(d.id, name, before))
                    .plus(id == 0 ? TreeSum.ZERO : namePart(d.id, name, id));
        }
    }

    /** File {@code n}, synced until now, is about to change: from now on its part is its states', not the tree's. */
    void fileChanging(TreeNode n) {
        if (names != null) {
            names = names.minus(syncedPart(n).times(n.links));
        }
    }

    /** File {@code n}'s changes are durable now: its part is the tree's again. */
    void fileSynced(TreeNode n) {
        if (names != null) {
            names = names.plus(syncedPart(n).times(n.links));
        }
    }

    /** Makes node {@code n}'s permission bits durable, and its part of {@link #names} with them. */
    void modeDurable(TreeNode n) {
        boolean counted = names != null && (n.dir || n.fileChanges.isEmpty());
        long named = n.dir ? (n.id != FileTree.ROOT && n.links > 0 ? 1 : 0) : n.links;
        if (counted) {
            names = names.minus(syncedPart(n).times(named));
        }
        n.durableMode = n.mode;
        if (counted) {
            names = names.plus(syncedPart(n).times(named));
        }
    }

    /**
     * The digest of what {@code survivor} keeps: each name of each directory the root reaches, with what it names (a
     * file's node, permission bits and bytes by the changes that made them; a directory's node and permission bits),
     * summed. Two states of one moment with the same digest keep the same names, bytes and bits.
     */
    TreeSum digest(Survivor survivor) {
        TreeSum sum = TreeSum.ZERO;
        Set<Long> reached = new HashSet<>();
        List<Long> dirs = new ArrayList<>(List.of(FileTree.ROOT));
        reached.add(FileTree.ROOT);
        while (!dirs.isEmpty()) {
            long id = dirs.remove(dirs.size() - 1);
            for (Map.Entry<String, Long> e : survivor.entries().get(id).entrySet()) {
                TreeNode n = tree.namespace().nodeAt(e.getValue());
                FilePages.Kept kept = n.dir ? null : survivor.data().get(n.id);
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
        TreeNode n = tree.namespace().nodeAt(id);
        TreeSum part = TreeSum.name(dir, name, id);
        return n.dir || n.fileChanges.isEmpty() ? part.plus(syncedPart(n)) : part;
    }

    /** The part of node {@code n} named once, as synced: a directory's, or a file's with no change since its sync. */
    static TreeSum syncedPart(TreeNode n) {
        return n.dir ? TreeSum.dir(n.id, n.durableMode)
                : TreeSum.file(n.id, n.durableMode, n.durableFold, n.durableData.size(), 0);
    }

    /** The part of file {@code n} named once, as a state leaves it: at {@code size}, with pieces summing to {@code pieces}. */
    static TreeSum filePart(TreeNode n, long size, long pieces) {
        return TreeSum.file(n.id, n.durableMode, n.durableFold, size, pieces);
    }
}

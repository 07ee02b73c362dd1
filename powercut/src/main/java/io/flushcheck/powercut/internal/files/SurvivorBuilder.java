package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a cut keeps of a {@link FileTree} as it is now, for one choice of what may be kept ({@link Keeps}), in steps:
 * under the journaled rules, the prefix of the one log of name changes it keeps; then in node order each directory's
 * names and each file's pages and truncations; last, the note of what only these rules lose and the list of the
 * operations lost, each with why it was not durable.
 */
final class SurvivorBuilder {

    /** The most operations a cut lists as discarded; past them, one entry says how many more. */
    static final int DISCARDED_LISTED = 1000;

    private final FileTree tree;
    private final Keeps keeps;
    private final boolean journaled;
    private final Map<Long, TreeMap<String, Long>> entries;
    private final Map<Long, FilePages.Kept> data;
    private long kept;
    private long discarded;
    /** Names the POSIX rules lost that a later sync of anything made durable on a journaled filesystem. */
    private final List<String> lostToPosix = new ArrayList<>();
    /** What the cut discarded, by the order it was made in; a rename's two changes are one operation. */
    private final TreeMap<Long, String> lostOps = new TreeMap<>();
    private final Set<String> opsSeen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final String nameReason;

    private SurvivorBuilder(FileTree tree, Keeps keeps) {
        this.tree = tree;
        this.keeps = keeps;
        this.journaled = tree.journaled();
        this.nameReason = journaled ? "no sync after it" : "directory not synced";
        // Sized for every node once: a tree of many files otherwise grows these maps again and again for each state.
        int nodes = (int) Math.min(1 << 28, tree.namespace().nextId());
        this.entries = new HashMap<>();
        this.data = new HashMap<>(nodes * 4 / 3 + 1);
    }

    /** What a cut that keeps what {@code keeps} says keeps of {@code tree} as it is now. */
    static Survivor of(FileTree tree, Keeps keeps) {
        return new SurvivorBuilder(tree, keeps).build();
    }

    private Survivor build() {
        long upTo = journalKeptBefore();
        Namespace namespace = tree.namespace();
        // In node order, so that a seed draws the same subset for the same workload.
        for (long id = FileTree.ROOT; id < namespace.nextId(); id++) {
            TreeNode n = namespace.nodeAt(id);
            if (n == null) {
                continue;
            }
            if (n.dir) {
                entries.put(id, journaled ? keepJournaled(n, upTo) : keepDirectory(n));
            } else {
                data.put(id, keepFile(n));
            }
        }
        String note = note();
        List<String> ops = new ArrayList<>(lostOps.values());
        int lost = ops.size();
        if (ops.size() > DISCARDED_LISTED) {
            int more = ops.size() - DISCARDED_LISTED;
            ops = new ArrayList<>(ops.subList(0, DISCARDED_LISTED));
            ops.add("and " + more + " more");
        }
        return new Survivor(entries, data, kept, discarded, note, List.copyOf(ops), lost);
    }

    /**
     * Under the journaled rules, where the prefix of the one log since the last sync that the cut keeps ends: the
     * changes before this seq; else (and when it keeps all) no bound.
     */
    private long journalKeptBefore() {
        if (!journaled) {
            return Long.MAX_VALUE;
        }
        List<NameChange> log = new ArrayList<>();
        for (TreeNode d : tree.rules().pendingDirs().values()) {
            log.addAll(d.nameChanges);
        }
        log.sort((a, b) -> Long.compare(a.seq(), b.seq()));
        int prefix = log.isEmpty() ? 0 : SyncRules.wholeOperations(log, keeps.namePrefix(0, log.size()));
        return prefix == log.size() ? Long.MAX_VALUE : log.get(prefix).seq();
    }

    /** Directory {@code n}'s names under the journaled rules: its durable ones, and its changes before {@code upTo}. */
    private TreeMap<String, Long> keepJournaled(TreeNode n, long upTo) {
        if (upTo == Long.MAX_VALUE) {
            return new TreeMap<>(n.entries); // every change kept: its names now, copied in order at once
        }
        TreeMap<String, Long> e = new TreeMap<>(n.durableEntries);
        for (NameChange c : n.nameChanges) {
            if (c.seq() < upTo) {
                c.applyTo(e);
            } else if (opsSeen.add(c.op())) {
                lostOps.put(c.order(), c.op() + ", " + nameReason);
            }
        }
        return e;
    }

    /** Directory {@code n}'s names under POSIX's rules: its durable ones, and the prefix of its changes kept. */
    private TreeMap<String, Long> keepDirectory(TreeNode n) {
        int prefix = n.nameChanges.isEmpty() ? 0
                : SyncRules.wholeOperations(n.nameChanges, keeps.namePrefix(n.id, n.nameChanges.size()));
        if (prefix == n.nameChanges.size()) {
            return new TreeMap<>(n.entries); // every change kept: its names now, copied in order at once
        }
        TreeMap<String, Long> e = new TreeMap<>(n.durableEntries);
        long seqAtLastSync = tree.rules().seqAtLastSync();
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
        return e;
    }

    /** What file {@code n} keeps: the truncations and each run of pages' changes kept, the rest said as lost. */
    private FilePages.Kept keepFile(TreeNode n) {
        long id = n.id;
        FilePages p = tree.data().pages(n);
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
        SyncRules rules = tree.rules();
        FilePages.lostGroups(b, new FilePages.LostGroups() {
            @Override
            public void wholeWrites(FileChange first, long end) {
                lostOps.put(first.order(), describeWrites(first, end) + rules.early(n, first));
            }

            @Override
            public void partOf(FileChange change, long lostBytes, List<FilePages.Piece> pieces) {
                lostOps.put(change.order(), describePart(change, lostBytes, pieces) + rules.early(n, change));
            }
        });
        for (FilePages.Piece piece : b.lost()) {
            discarded += piece.to() - piece.from();
        }
        for (int t = m; t < p.truncations(); t++) {
            FileChange c = p.truncation(t);
            lostOps.put(c.order(), "truncate " + c.path() + " to " + c.newSize() + " bytes, file not synced");
        }
        return b;
    }

    /** What the cut lost that only these rules lose, and what the file model cannot see; empty when neither. */
    private String note() {
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
        return note;
    }

    private static String describeWrites(FileChange first, long end) {
        return (end - first.offset()) + " bytes at offset " + first.offset() + " of " + first.path() + ", file not synced";
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

    /** A name change of directory {@code d}, as the note of what the POSIX rules lost says it. */
    private String describe(TreeNode d, NameChange c) {
        String path = tree.namespace().path(d) + c.name();
        TreeNode n = c.node() == 0 ? null : tree.namespace().nodeAt(c.node());
        return c.node() == 0 ? "the removal of " + path : (n != null && n.dir ? "directory " : "") + path;
    }
}

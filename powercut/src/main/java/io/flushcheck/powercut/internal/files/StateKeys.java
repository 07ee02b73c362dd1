package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order (the operations lost) and the digest of each of a tree's crash states at one moment
 * ({@link FileTree#statePicks()}), each found from what the state changes of the tree as it is alone, as
 * {@link FileTree#state} would find them from the whole state: a state that loses a page of one file from the digest
 * of the tree with that file's part changed; the prefixes of a log of name changes by undoing it, one operation at a
 * time, from the tree as it is. So an epoch's states cost what their changes cost, not the tree's size each.
 *
 * <p>The digest ({@link TreeSum}) sums, over the names of each directory the root reaches, the name's part and the
 * part of what it names. The tree as it is ({@link TreeDigests#names()}, kept as it changes) is every state's start:
 * its directories all reached from the root (a directory removed holds no name, and the tree refuses a directory
 * moved into itself). Under the journaled rules each prefix of the log is the tree as it was at that moment, where
 * the same holds, so undoing a change changes its own name's part alone; as the log is undone each directory it
 * leaves unnamed is checked to hold no name, and the states are found whole where one does. Under POSIX's, a
 * directory's log undone alone changes what its names reach only when one of them names a directory: those
 * directories' states are found whole.
 */
final class StateKeys {

    /** A state's order and digest: the operations it loses, and the sum of its parts. */
    record Key(int lost, TreeSum digest) {
    }

    /** A file with changes since its sync: its pages, and its part with every change kept. */
    private record Pending(TreeNode node, FilePages pages, TreeSum allPart) {
    }

    /** A name change with the directory it changed. */
    private record Change(TreeNode dir, NameChange change) {
    }

    private record DirName(long dir, String name) {
    }

    /**
     * A log of name changes undone from the tree as it is: the digest at the start of each operation ({@code at},
     * null between two changes of one), the operations from each start on, and how many more names of each file with
     * changes the log's start holds than the tree now.
     */
    private record Undone(TreeSum[] at, int[] operationsFrom, Map<Long, Integer> fileNames) {
    }

    private final FileTree tree;
    private final Map<Long, Pending> pending = new HashMap<>();
    /** The state that keeps every change: the tree as it is. */
    private final TreeSum all;
    private Undone journal;
    private boolean journalDone;
    private final Map<Long, Undone> dirs = new HashMap<>();

    StateKeys(FileTree tree) {
        this.tree = tree;
        TreeSum sum = tree.digests().names();
        for (TreeNode n : tree.rules().pendingFiles().values()) {
            FilePages pages = tree.data().pages(n);
            FilePages.Choice every = pages.all();
            TreeSum part = TreeDigests.filePart(n, every.size(), every.pieces());
            pending.put(n.id, new Pending(n, pages, part));
            sum = sum.plus(part.times(n.links));
        }
        this.all = sum;
    }

    List<Key> of(List<StatePick> picks) {
        List<Key> keys = new ArrayList<>(picks.size());
        for (StatePick pick : picks) {
            keys.add(switch (pick.kind()) {
                case ALL -> new Key(0, all);
                case PAGES, TRUNCATIONS -> fileKey(pick);
                case NAMES -> namesKey(pick);
                case DURABLE -> durableKey(pick);
            });
        }
        return keys;
    }

    /** A state that changes one file alone: the tree's digest with that file's part, named as many times as it is, changed. */
    private Key fileKey(StatePick pick) {
        Pending p = pending.get(pick.node());
        FilePages.Choice choice = pick.kind() == StatePick.Kind.PAGES && p.pages().keepsEveryTruncation(pick.run(),
                pick.count()) ? p.pages().withRunAt(pick.run(), pick.count()) : choice(p, pick);
        TreeSum part = TreeDigests.filePart(p.node(), choice.size(), choice.pieces());
        return new Key(choice.lost(), all.plus(part.minus(p.allPart()).times(p.node().links)));
    }

    /** What {@code keeps} leaves of file {@code p}, found from all its changes, as the tree's cut and states do. */
    private static FilePages.Choice choice(Pending p, Keeps keeps) {
        FilePages pages = p.pages();
        long id = p.node().id;
        int m = keeps.truncations(id, pages);
        int[] k = new int[pages.runs().size()];
        for (int r = 0; r < k.length; r++) {
            k[r] = keeps.pagePrefix(id, pages, r, pages.low(r, m), pages.high(r, m));
        }
        return pages.choice(pages.keep(m, k));
    }

    private Key namesKey(StatePick pick) {
        Undone undone = pick.node() == 0 ? journal() : dir(pick.node());
        if (undone == null) {
            return tree.stateKey(pick);
        }
        return new Key(undone.operationsFrom()[pick.count()], undone.at()[pick.count()]);
    }

    /**
     * What was durable: every log of name changes undone (the digest of its start), each file with changes then as
     * its durable choice, named as the start names it.
     */
    private Key durableKey(StatePick pick) {
        TreeSum sum = all;
        Map<Long, Integer> names = new HashMap<>();
        if (tree.journaled()) {
            Undone j = journal();
            if (j == null) {
                return tree.stateKey(pick);
            }
            sum = j.at()[0];
            names.putAll(j.fileNames());
        } else {
            for (TreeNode d : tree.rules().pendingDirs().values()) {
                Undone u = dir(d.id);
                if (u == null) {
                    return tree.stateKey(pick);
                }
                sum = sum.plus(u.at()[0].minus(all));
                u.fileNames().forEach((f, more) -> names.merge(f, more, Integer::sum));
            }
        }
        Set<String> operations = Collections.newSetFromMap(new IdentityHashMap<>());
        for (TreeNode d : tree.rules().pendingDirs().values()) {
            for (NameChange c : d.nameChanges) {
                operations.add(c.op());
            }
        }
        int lost = operations.size();
        for (Pending p : pending.values()) {
            FilePages.Choice choice = choice(p, pick);
            lost += choice.lost();
            TreeSum part = TreeDigests.filePart(p.node(), choice.size(), choice.pieces());
            sum = sum.plus(part.minus(p.allPart()).times(p.node().links + names.getOrDefault(p.node().id, 0)));
        }
        return new Key(lost, sum);
    }

    /** The journaled rules' one log undone; null where a prefix of it is not a tree as the tree was. */
    private Undone journal() {
        if (!journalDone) {
            List<Change> log = new ArrayList<>();
            for (TreeNode d : tree.rules().pendingDirs().values()) {
                for (NameChange c : d.nameChanges) {
                    log.add(new Change(d, c));
                }
            }
            log.sort((a, b) -> Long.compare(a.change().seq(), b.change().seq()));
            journal = undo(log, true);
            journalDone = true;
        }
        return journal;
    }

    /** Directory {@code id}'s log undone under POSIX's rules; null where a change of it names a directory. */
    private Undone dir(long id) {
        if (!dirs.containsKey(id)) {
            TreeNode d = tree.namespace().nodeAt(id);
            List<Change> log = new ArrayList<>();
            for (NameChange c : d.nameChanges) {
                log.add(new Change(d, c));
            }
            dirs.put(id, undo(log, false));
        }
        return dirs.get(id);
    }

    /**
     * Undoes {@code log} from the tree as it is, one operation at a time. Under the journaled rules ({@code journal})
     * every start of an operation is the tree as it was then, whose directories no name reaches hold no name: each
     * change undone changes its own name's part alone, and a directory left unnamed while it holds names (which a
     * tree never has) makes this give up (null). Under POSIX's the log is one directory's, which changes what its
     * names reach only where one names a directory: then it gives up; and where the directory itself is reached by
     * no name, its names count for nothing.
     */
    private Undone undo(List<Change> log, boolean journal) {
        int size = log.size();
        long[] before = namedBefore(log, journal);
        if (before == null) {
            return null;
        }
        boolean counted = journal || log.isEmpty() || log.get(0).dir().id == FileTree.ROOT || log.get(0).dir().links > 0;
        TreeSum[] at = new TreeSum[size + 1];
        int[] operationsFrom = new int[size + 1];
        Map<Long, Integer> fileNames = new HashMap<>();
        // Under the journaled rules: names reaching each directory, and names each holds, for those the log changed.
        Map<Long, int[]> reaching = new HashMap<>();
        Map<Long, int[]> holding = new HashMap<>();
        TreeSum sum = all;
        at[size] = sum;
        int operations = 0;
        for (int end = size - 1; end >= 0; ) {
            int start = end;
            while (start > 0 && log.get(start - 1).change().op() == log.get(end).change().op()) {
                start--;
            }
            List<TreeNode> touched = new ArrayList<>();
            for (int i = end; i >= start; i--) {
                Change c = log.get(i);
                long undone = c.change().node();
                long back = before[i];
                long dir = c.dir().id;
                String name = c.change().name();
                if (counted) {
                    if (undone != 0) {
                        sum = sum.minus(part(dir, name, undone));
                        fileNames.merge(undone, -1, Integer::sum);
                    }
                    if (back != 0) {
                        sum = sum.plus(part(dir, name, back));
                        fileNames.merge(back, 1, Integer::sum);
                    }
                }
                if (journal) {
                    touched.add(c.dir());
                    holding.computeIfAbsent(dir, x -> new int[] {c.dir().entries.size()})[0] +=
                            (back != 0 ? 1 : 0) - (undone != 0 ? 1 : 0);
                    for (long child : new long[] {undone, back}) {
                        TreeNode n = child == 0 ? null : tree.namespace().nodeAt(child);
                        if (n != null && n.dir) {
                            touched.add(n);
                            reaching.computeIfAbsent(child, x -> new int[] {n.links > 0 ? 1 : 0})[0] +=
                                    child == back ? 1 : -1;
                        }
                    }
                }
            }
            if (journal && unnamedHolding(touched, reaching, holding)) {
                return null;
            }
            operations++;
            at[start] = sum;
            operationsFrom[start] = operations;
            end = start - 1;
        }
        fileNames.keySet().retainAll(pending.keySet());
        return new Undone(at, operationsFrom, fileNames);
    }

    /**
     * What each change of {@code log} replaced: the node its name named before it (0 for none); null where, under
     * POSIX's rules ({@code journal} false), a change names a directory or replaces one's name.
     */
    private long[] namedBefore(List<Change> log, boolean journal) {
        long[] before = new long[log.size()];
        Map<DirName, Long> now = new HashMap<>();
        for (int i = 0; i < log.size(); i++) {
            Change c = log.get(i);
            DirName at = new DirName(c.dir().id, c.change().name());
            Long was = now.containsKey(at) ? now.get(at) : c.dir().durableEntries.get(at.name());
            before[i] = was == null ? 0 : was;
            now.put(at, c.change().node());
            if (!journal && (isDir(before[i]) || isDir(c.change().node()))) {
                return null;
            }
        }
        return before;
    }

    /**
     * Whether one of the directories {@code touched} is left reached by no name ({@code reaching}) while it holds
     * names ({@code holding}), each as the changes undone so far leave it (else as the tree has it): a tree no
     * prefix of the log was.
     */
    private static boolean unnamedHolding(List<TreeNode> touched, Map<Long, int[]> reaching, Map<Long, int[]> holding) {
        for (TreeNode d : touched) {
            int[] in = reaching.get(d.id);
            int[] held = holding.get(d.id);
            boolean unnamed = d.id != FileTree.ROOT && (in != null ? in[0] : d.links > 0 ? 1 : 0) == 0;
            if (unnamed && (held != null ? held[0] : d.entries.size()) > 0) {
                return true;
            }
        }
        return false;
    }

    private boolean isDir(long id) {
        return id != 0 && tree.namespace().nodeAt(id).dir;
    }

    /** The part of name {@code name} of {@code dir} naming {@code id} with what it names as every state of this moment keeping all of its changes has it. */
    private TreeSum part(long dir, String name, long id) {
        Pending p = pending.get(id);
        return p == null ? tree.digests().namePart(dir, name, id) : TreeSum.name(dir, name, id).plus(p.allPart());
    }
}

package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The crash states of a {@link FileTree} as it is now, as picks ({@link StatePick}), and a state's description: what it
 * keeps and loses said in a sentence.
 */
final class StatePicks {

    private final FileTree tree;

    StatePicks(FileTree tree) {
        this.tree = tree;
    }

    /** {@link FileTree#statePicks()}: the durable state, each prefix of each log of changes since a sync, all kept. */
    List<StatePick> all() {
        List<StatePick> picks = new ArrayList<>();
        SyncRules rules = tree.rules();
        List<NameChange> journal = rules.journal();
        // In node order, the nodes with changes since their sync alone: a state's cost is what is pending.
        TreeMap<Long, TreeNode> pending = new TreeMap<>(rules.pendingFiles());
        if (!tree.journaled()) {
            pending.putAll(rules.pendingDirs());
        }
        for (TreeNode n : pending.values()) {
            long id = n.id;
            if (n.dir) {
                addPrefixes(picks, id, n.nameChanges);
            } else {
                FilePages p = tree.data().pages(n);
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

    /** The prefixes of {@code log} short of all of it, ending between two operations. */
    private static void addPrefixes(List<StatePick> picks, long dir, List<NameChange> log) {
        for (int p = 0; p < log.size(); p++) {
            if (p == 0 || log.get(p - 1).op() != log.get(p).op()) {
                picks.add(new StatePick(StatePick.Kind.NAMES, dir, 0, p));
            }
        }
    }

    /** What state {@code pick}, which left {@code survivor}, keeps and loses, in a sentence. */
    String describe(StatePick pick, Survivor survivor) {
        int lost = survivor.lost();
        String ops = lost == 1 ? " operation" : " operations";
        return switch (pick.kind()) {
            case DURABLE -> "only what was synced kept, the " + lost + ops + " not yet durable lost";
            case ALL -> "every operation kept";
            case NAMES -> "the last " + (lost == 1 ? "name operation" : lost + " name operations")
                    + (pick.node() == 0 ? " since the last sync" : " of directory "
                    + tree.namespace().relPath(tree.namespace().nodeAt(pick.node()), null)
                    + " since its last sync") + " lost (" + (lost == 1 ? "" : "the first: ") + survivor.discardedOps().get(0)
                    + "), every write kept";
            case PAGES -> describePages(pick) + lostSaid(survivor);
            case TRUNCATIONS -> {
                FilePages p = tree.data().pages(tree.namespace().nodeAt(pick.node()));
                String of = " of the " + p.truncations() + " truncation" + (p.truncations() == 1 ? "" : "s") + " of "
                        + p.truncation(0).path() + " kept";
                yield (pick.count() == 0 ? "none" + of : "the first " + pick.count() + of) + lostSaid(survivor);
            }
        };
    }

    /** What a {@link StatePick.Kind#PAGES} state keeps of its pages: "page 0 of lock as it was after write 1 of 2". */
    private String describePages(StatePick pick) {
        TreeNode n = tree.namespace().nodeAt(pick.node());
        FilePages p = tree.data().pages(n);
        FilePages.Run run = p.runs().get(pick.run());
        int[] changes = run.changes();
        String what = p.onlyWrites(pick.run()) ? "write" : "change";
        String path = n.fileChanges.get(changes[0]).path();
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
}

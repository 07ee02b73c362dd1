package io.flushcheck.cli;

import io.flushcheck.powercut.CrashStates;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins the {@code --replay --shard I/N} documents of one recording into the document one {@code --replay} of
 * it would print: each state from the shard that checked it, in the enumeration's order, the counts summed,
 * and explanations on the first failing states only, as one run gives them. Documents of different
 * recordings, bounds or verifies, a shard missing or given twice, are refused: the merge would claim states
 * checked that were not, or checked two ways.
 */
final class ReplayMerge {

    private ReplayMerge() {
    }

    /** @throws IllegalArgumentException saying why the documents are not the shards of one check */
    static ReplayOutput.Document merge(List<String> names, List<ReplayOutput.Document> docs) {
        ReplayOutput.Document first = docs.get(0);
        int shards = count(names.get(0), first);
        ReplayOutput.Document[] byShard = new ReplayOutput.Document[shards];
        for (int d = 0; d < docs.size(); d++) {
            ReplayOutput.Document doc = docs.get(d);
            String name = names.get(d);
            if (!doc.recording().equals(first.recording())) {
                throw new IllegalArgumentException(name + " is of recording " + doc.recording() + ", " + names.get(0)
                        + " of " + first.recording() + ": shards of different recordings do not merge");
            }
            same(name, "verify", doc.verify(), first.verify(), names.get(0));
            same(name, "maxStates", doc.maxStates(), first.maxStates(), names.get(0));
            same(name, "draw", String.valueOf(doc.draw()), String.valueOf(first.draw()), names.get(0));
            same(name, "states", doc.states().size(), first.states().size(), names.get(0));
            if (count(name, doc) != shards) {
                throw new IllegalArgumentException(name + " is shard " + doc.shard() + ", " + names.get(0) + " "
                        + first.shard() + ": shards of different splits do not merge");
            }
            int index = Integer.parseInt(doc.shard().substring(0, doc.shard().indexOf('/'))) - 1;
            if (byShard[index] != null) {
                throw new IllegalArgumentException("shard " + doc.shard() + " is given twice (" + name + ")");
            }
            byShard[index] = doc;
        }
        for (int s = 0; s < shards; s++) {
            if (byShard[s] == null) {
                throw new IllegalArgumentException("shard " + (s + 1) + "/" + shards + " is missing: its states were not"
                        + " checked");
            }
        }
        List<ReplayOutput.State> states = new ArrayList<>();
        int failed = 0;
        for (int i = 0; i < first.states().size(); i++) {
            ReplayOutput.State s = byShard[i % shards].states().get(i);
            if (!s.checked()) {
                throw new IllegalArgumentException("shard " + (i % shards + 1) + "/" + shards + " did not check state "
                        + (i + 1) + ", which is its share");
            }
            if (!s.passed()) {
                // One run explains its first few failing states; each shard explained its own first few.
                failed++;
                if (failed > CrashStates.EXPLAINED) {
                    s = new ReplayOutput.State(s.state(), s.lost(), true, false, s.failure(), null);
                }
            }
            states.add(s);
        }
        int checked = 0;
        double seconds = 0;
        for (ReplayOutput.Document doc : byShard) {
            checked += doc.checked();
            seconds += doc.seconds();
        }
        return new ReplayOutput.Document(ReplayOutput.MODE, first.recording(), null, first.verify(), first.model(),
                first.rules(), first.fs(), first.atomicWriteBytes(), first.maxStates(), first.draw(), first.writes(),
                first.epochs(), first.acknowledgements(), checked, checked - failed, failed, 0, first.duplicates(),
                first.leftOut(), seconds, states);
    }

    private static int count(String name, ReplayOutput.Document doc) {
        if (doc.shard() == null) {
            throw new IllegalArgumentException(name + " checked every state, not a shard of them: nothing to merge");
        }
        return Integer.parseInt(doc.shard().substring(doc.shard().indexOf('/') + 1));
    }

    private static void same(String name, String field, Object value, Object expected, String firstName) {
        if (!value.equals(expected)) {
            throw new IllegalArgumentException(name + " has \"" + field + "\" " + value + ", " + firstName + " "
                    + expected + ": shards of one check have the same");
        }
    }
}

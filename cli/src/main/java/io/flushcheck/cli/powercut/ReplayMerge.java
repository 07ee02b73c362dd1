package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.CrashStates;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Joins the {@code --replay --shard I/N} documents of one recording into the document one {@code --replay} of
 * it would print: each state from the shard that checked it, in the enumeration's order, the counts made from
 * those states (never the shards' own), and explanations on the first failing states only, as one run gives
 * them. Documents of different recordings, bounds or verifies, a shard missing or given twice, a shard that
 * checked another's state, are refused: the merge would claim states checked that were not, or checked two ways.
 */
final class ReplayMerge {

    private ReplayMerge() {
    }

    /**
     * @throws IllegalArgumentException naming the document and the field that make them not the shards of one
     *                                  check
     */
    static ReplayOutput.Document merge(List<String> names, List<ReplayOutput.Document> docs) {
        ReplayOutput.Document first = docs.get(0);
        String firstName = names.get(0);
        int shards = shard(firstName, first).count();
        if (shards > docs.size()) {
            // Found before anything is made per shard: a count no one gave documents for is refused at once.
            Set<Integer> given = new HashSet<>();
            for (int d = 0; d < docs.size(); d++) {
                given.add(shard(names.get(d), docs.get(d)).index());
            }
            int absent = 1;
            while (given.contains(absent)) {
                absent++;
            }
            throw missing(absent, firstName, first);
        }
        ReplayOutput.Document[] byShard = new ReplayOutput.Document[shards];
        String[] nameOf = new String[shards];
        for (int d = 0; d < docs.size(); d++) {
            ReplayOutput.Document doc = docs.get(d);
            String name = names.get(d);
            if (!doc.recording().equals(first.recording())) {
                throw new IllegalArgumentException(name + " has \"recording\" " + Brief.of(doc.recording()) + ", "
                        + firstName + " " + Brief.of(first.recording())
                        + ": shards of different recordings do not merge");
            }
            same(name, "verify", doc.verify(), first.verify(), firstName);
            same(name, "model", doc.model(), first.model(), firstName);
            same(name, "rules", doc.rules(), first.rules(), firstName);
            same(name, "fs", doc.fs(), first.fs(), firstName);
            same(name, "atomicWriteBytes", doc.atomicWriteBytes(), first.atomicWriteBytes(), firstName);
            same(name, "maxStates", doc.maxStates(), first.maxStates(), firstName);
            same(name, "draw", String.valueOf(doc.draw()), String.valueOf(first.draw()), firstName);
            same(name, "writes", doc.writes(), first.writes(), firstName);
            same(name, "epochs", doc.epochs(), first.epochs(), firstName);
            same(name, "acknowledgements", doc.acknowledgements(), first.acknowledgements(), firstName);
            same(name, "duplicates", doc.duplicates(), first.duplicates(), firstName);
            same(name, "leftOut", doc.leftOut(), first.leftOut(), firstName);
            same(name, "states", doc.states().size(), first.states().size(), firstName);
            Shard shard = shard(name, doc);
            if (shard.count() != shards) {
                throw new IllegalArgumentException(name + " is shard " + shard + ", " + firstName + " " + first.shard()
                        + ": \"shard\" of different splits do not merge");
            }
            if (byShard[shard.fromZero()] != null) {
                throw new IllegalArgumentException("\"shard\" " + shard + " is given twice (" + name + ")");
            }
            byShard[shard.fromZero()] = doc;
            nameOf[shard.fromZero()] = name;
            for (int i = 0; i < doc.states().size(); i++) {
                ReplayOutput.State s = doc.states().get(i);
                same(name, "state", s.state(), first.states().get(i).state(), firstName);
                if (s.checked() && i % shards != shard.fromZero()) {
                    throw new IllegalArgumentException(name + ": \"states\" has state " + (i + 1) + " checked, which is"
                            + " shard " + (i % shards + 1) + "/" + shards + "'s share, not " + shard + "'s");
                }
            }
        }
        for (int s = 0; s < shards; s++) {
            if (byShard[s] == null) {
                throw missing(s + 1, firstName, first);
            }
        }
        List<ReplayOutput.State> states = new ArrayList<>();
        int failed = 0;
        for (int i = 0; i < first.states().size(); i++) {
            ReplayOutput.State s = byShard[i % shards].states().get(i);
            if (!s.checked()) {
                throw new IllegalArgumentException(nameOf[i % shards] + ": \"states\" has"
                        + " state " + (i + 1) + " unchecked, which is its share as shard " + (i % shards + 1) + "/"
                        + shards);
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
        double seconds = 0;
        for (ReplayOutput.Document doc : byShard) {
            seconds += doc.seconds();
        }
        // Every state is checked once between the shards: the merged counts are the states'.
        int checked = states.size();
        return new ReplayOutput.Document(ReplayOutput.MODE, first.recording(), null, first.verify(), first.model(),
                first.rules(), first.fs(), first.atomicWriteBytes(), first.maxStates(), first.draw(), first.writes(),
                first.epochs(), first.acknowledgements(), checked, checked - failed, failed, 0, first.duplicates(),
                first.leftOut(), seconds, states);
    }

    private static IllegalArgumentException missing(int shard, String firstName, ReplayOutput.Document first) {
        return new IllegalArgumentException("shard " + shard + "/" + shard(firstName, first).count()
                + " is missing: its states were not checked (" + firstName + " has \"shard\" " + first.shard() + ")");
    }

    private static Shard shard(String name, ReplayOutput.Document doc) {
        if (doc.shard() == null) {
            throw new IllegalArgumentException(name + " has no \"shard\": it checked every state, not a shard of them,"
                    + " and has nothing to merge");
        }
        try {
            return Shard.inDocument(doc.shard());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static void same(String name, String field, Object value, Object expected, String firstName) {
        if (!Objects.equals(value, expected)) {
            throw new IllegalArgumentException(name + " has \"" + field + "\" " + shown(value) + ", " + firstName + " "
                    + shown(expected) + ": shards of one check have the same");
        }
    }

    private static String shown(Object value) {
        return value instanceof String s ? Brief.of(s) : String.valueOf(value);
    }
}

package io.flushcheck.powercut.internal.files;

import java.util.TreeMap;

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

package io.flushcheck.powercut.internal.files;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a cut of a {@link FileTree} kept ({@link SurvivorBuilder}): the tree to write out, each file's changes kept
 * over its durable bytes (which no longer change: the power is gone), the bytes of file writes it kept and lost,
 * the note of what only these rules lose, and the operations it lost, a line each, with how many.
 */
record Survivor(Map<Long, TreeMap<String, Long>> entries, Map<Long, FilePages.Kept> data, long kept,
                long discarded, String note, List<String> discardedOps, int lost) {
}

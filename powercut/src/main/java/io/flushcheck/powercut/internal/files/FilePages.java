package io.flushcheck.powercut.internal.files;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A file's changes since its last sync (writes and truncations) page by page, as a page-cache filesystem writes
 * them back: each 4 KiB page reaches the medium as it was at one moment, so of the changes that touched a page a
 * prefix in time survives, never a later one without an earlier one; pages go independently of each other. A
 * truncation is journaled: of the file's truncations a prefix in time survives, at least those a journal commit
 * made durable already ({@link #committed()}), and a page it cut (at or past its new size) keeps it exactly when
 * it survived. The size is what the filesystem would have: that of the last truncation kept (or the durable
 * one), grown by each page written back after it, up to the size the file had when that page was written,
 * within the page; a page it grew over that was not written back reads as zeros.
 *
 * <p>Pages touched by the same changes form a run, which a crash state and a draw keep as one: a write of many
 * pages is not torn within itself, as no change of this model ever was.
 */
final class FilePages {

    static final long PAGE = 4096;

    /** Pages {@code firstPage} to {@code lastPage}, touched by the same changes: their indices, in time order. */
    record Run(long firstPage, long lastPage, int[] changes) {
        long start() {
            return firstPage * PAGE;
        }

        long end() {
            return (lastPage + 1) * PAGE;
        }
    }

    /** Bytes {@code from} to {@code to} of a change: a write's part, or the part of a file a truncation zeroes. */
    record Piece(int index, FileChange change, long from, long to) {
    }

    /**
     * What a choice keeps: the pieces, in the order made, the writes' pieces lost, the size, truncations kept, and
     * the sum of {@link #pieceHash} over the pieces kept, each run's own (not joined across runs).
     */
    record Kept(List<Piece> kept, List<Piece> lost, long size, int truncations, long pieces) {
    }

    /**
     * What a choice leaves of the file, as a crash state's digest and order take it: its size, the sum of
     * {@link #pieceHash} over its pieces kept, and the operations it loses (as {@link #lostGroups} says them, and
     * each truncation lost).
     */
    record Choice(long size, long pieces, int lost) {
    }

    /** What the writes and truncations a choice lost are said as: a cut's list of what it discarded says each once. */
    interface LostGroups {
        /** Writes lost whole, each starting where the one before ended, in one file: {@code first} to {@code end}. */
        void wholeWrites(FileChange first, long end);

        /** A write lost on {@code pieces} (its {@code lostBytes}), kept on its other pages. */
        void partOf(FileChange change, long lostBytes, List<Piece> pieces);
    }

    private final List<FileChange> changes;
    private final long durableSize;
    private final int committed;
    private final long[] sizeAfter;
    private final int[] truncations;
    /** Per change, its number among the truncations; -1 for a write. */
    private final int[] truncationNumber;
    private final List<Run> runs;
    /** What keeping every change leaves, once asked for: the same for each state that keeps all of this file. */
    private Kept keptAll;

    private FilePages(List<FileChange> changes, long durableSize, int committed, long[] sizeAfter,
                      int[] truncations, int[] truncationNumber, List<Run> runs) {
        this.changes = changes;
        this.durableSize = durableSize;
        this.committed = committed;
        this.sizeAfter = sizeAfter;
        this.truncations = truncations;
        this.truncationNumber = truncationNumber;
        this.runs = runs;
    }

    /**
     * The pages of {@code changes}, a file's since its last sync in order, over its {@code durableSize} bytes, of
     * which the first {@code committed} truncations are durable already.
     */
    static FilePages of(List<FileChange> changes, long durableSize, int committed) {
        int n = changes.size();
        long[] sizeAfter = new long[n];
        int[] number = new int[n];
        int[] truncations = new int[n];
        int truncated = 0;
        // The pages each change touched, first and last; a change touching none (an empty write, a growing
        // truncation) has first > last.
        long[] first = new long[n];
        long[] last = new long[n];
        long[] bounds = new long[2 * n];
        int bound = 0;
        long size = durableSize;
        for (int i = 0; i < n; i++) {
            FileChange c = changes.get(i);
            first[i] = 0;
            last[i] = -1;
            number[i] = -1;
            if (c.isWrite()) {
                if (c.length() > 0) {
                    first[i] = c.offset() / PAGE;
                    last[i] = (c.offset() + c.length() - 1) / PAGE;
                }
                size = Math.max(size, c.offset() + c.length());
            } else {
                number[i] = truncated;
                truncations[truncated++] = i;
                if (c.newSize() < size) {
                    // Every page from the one the new size falls in to the old last: cut, or zeroed past the size.
                    first[i] = c.newSize() / PAGE;
                    last[i] = (size - 1) / PAGE;
                }
                size = c.newSize();
            }
            sizeAfter[i] = size;
            if (first[i] <= last[i]) {
                bounds[bound++] = first[i];
                bounds[bound++] = last[i] + 1;
            }
        }
        long[] at = distinct(bounds, bound);
        // Segment s is pages at[s] to at[s + 1] - 1; each change appends itself to the segments it covers, in order.
        List<List<Integer>> touched = new ArrayList<>();
        for (int s = 0; s + 1 < at.length; s++) {
            touched.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            if (first[i] > last[i]) {
                continue;
            }
            for (int s = Arrays.binarySearch(at, first[i]); at[s] <= last[i]; s++) {
                touched.get(s).add(i);
            }
        }
        List<Run> runs = new ArrayList<>();
        for (int s = 0; s < touched.size(); s++) {
            if (!touched.get(s).isEmpty()) {
                List<Integer> t = touched.get(s);
                int[] c = new int[t.size()];
                for (int j = 0; j < c.length; j++) {
                    c[j] = t.get(j);
                }
                runs.add(new Run(at[s], at[s + 1] - 1, c));
            }
        }
        if (committed < 0 || committed > truncated) {
            throw new IllegalArgumentException(committed + " truncations committed of " + truncated);
        }
        return new FilePages(changes, durableSize, committed, sizeAfter, Arrays.copyOf(truncations, truncated), number,
                List.copyOf(runs));
    }

    /** The first {@code count} of {@code values}, sorted, each once. */
    private static long[] distinct(long[] values, int count) {
        Arrays.sort(values, 0, count);
        int out = 0;
        for (int i = 0; i < count; i++) {
            if (out == 0 || values[i] != values[out - 1]) {
                values[out++] = values[i];
            }
        }
        return Arrays.copyOf(values, out);
    }

    /**
     * Whether these are the pages of {@code changes} (the same change objects, in order) over {@code durableSize}
     * bytes with {@code committed} truncations durable: a change moved in the log is a new object.
     */
    boolean isOf(List<FileChange> changes, long durableSize, int committed) {
        if (changes.size() != this.changes.size() || durableSize != this.durableSize || committed != this.committed) {
            return false;
        }
        for (int i = 0; i < changes.size(); i++) {
            if (changes.get(i) != this.changes.get(i)) {
                return false;
            }
        }
        return true;
    }

    List<Run> runs() {
        return runs;
    }

    /** The truncations since the last sync. */
    int truncations() {
        return truncations.length;
    }

    /**
     * The first truncations since the last sync that are durable already, committed with the metadata of a sync of
     * another file (the journaled rules): every choice keeps them, and the pages they cut as they cut them.
     */
    int committed() {
        return committed;
    }

    /** Truncation {@code t} since the last sync, from 0. */
    FileChange truncation(int t) {
        return changes.get(truncations[t]);
    }

    /** Pages {@code first} to {@code last}, in words. */
    static String pages(long first, long last) {
        return first == last ? "page " + first : "pages " + first + " to " + last;
    }

    /** The fewest changes of run {@code r} a state keeping the first {@code m} truncations keeps: those it cut. */
    int low(int r, int m) {
        int[] c = runs.get(r).changes();
        for (int p = c.length - 1; p >= 0; p--) {
            if (truncationNumber[c[p]] >= 0 && truncationNumber[c[p]] < m) {
                return p + 1;
            }
        }
        return 0;
    }

    /** The most changes of run {@code r} a state keeping the first {@code m} truncations keeps: none it lost. */
    int high(int r, int m) {
        int[] c = runs.get(r).changes();
        for (int p = 0; p < c.length; p++) {
            if (truncationNumber[c[p]] >= m) {
                return p;
            }
        }
        return c.length;
    }

    /** The most truncations a state keeping the first {@code k} changes of run {@code r} keeps. */
    int truncationsWith(int r, int k) {
        int[] c = runs.get(r).changes();
        for (int p = k; p < c.length; p++) {
            if (truncationNumber[c[p]] >= 0) {
                return truncationNumber[c[p]];
            }
        }
        return truncations.length;
    }

    /** Whether every change of run {@code r} is a write. */
    boolean onlyWrites(int r) {
        for (int c : runs.get(r).changes()) {
            if (truncationNumber[c] >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * What keeping the first {@code m} truncations and, of each run {@code r}, its first {@code k[r]} changes
     * (within {@link #low} and {@link #high}) leaves.
     */
    Kept keep(int m, int[] k) {
        if (m < committed || m > truncations.length || k.length != runs.size()) {
            throw new IllegalArgumentException("no such choice: " + m + " truncations of " + truncations.length
                    + " (" + committed + " committed)"
                    + ", " + k.length + " runs of " + runs.size());
        }
        boolean all = m == truncations.length;
        for (int r = 0; all && r < k.length; r++) {
            all = k[r] == runs.get(r).changes().length;
        }
        if (all) {
            // What every state that leaves this file alone keeps of it: made once, not once a state.
            if (keptAll == null) {
                keptAll = choose(m, k);
            }
            return keptAll;
        }
        return choose(m, k);
    }

    /** {@link #keep}, made. */
    private Kept choose(int m, int[] k) {
        int lastKept = m == 0 ? -1 : truncations[m - 1];
        int next = m < truncations.length ? truncations[m] : changes.size();
        long size = m == 0 ? durableSize : sizeAfter[lastKept];
        List<List<Piece>> kept = new ArrayList<>();
        List<List<Piece>> lost = new ArrayList<>();
        long pieces = 0;
        for (int i = 0; i < changes.size(); i++) {
            kept.add(null);
            lost.add(null);
        }
        for (int r = 0; r < runs.size(); r++) {
            Run run = runs.get(r);
            if (k[r] < low(r, m) || k[r] > high(r, m)) {
                throw new IllegalArgumentException("run " + r + " keeps " + k[r] + " changes, not within "
                        + low(r, m) + " to " + high(r, m) + " with " + m + " truncations kept");
            }
            int[] c = run.changes();
            if (k[r] > 0) {
                // Written back just after its last change kept: the size then, within the page, is on the medium,
                // unless that was before the last truncation kept, which set it, or after one lost, not committed.
                int j = c[k[r] - 1];
                if (j > lastKept && j < next) {
                    size = Math.max(size, Math.min(sizeAfter[j], run.end()));
                }
            }
            for (int p = 0; p < c.length; p++) {
                FileChange change = changes.get(c[p]);
                if (p >= k[r] && !change.isWrite()) {
                    continue;
                }
                long from = Math.max(run.start(), change.isWrite() ? change.offset() : change.newSize());
                long to = change.isWrite() ? Math.min(run.end(), change.offset() + change.length()) : run.end();
                List<List<Piece>> into = p < k[r] ? kept : lost;
                if (into.get(c[p]) == null) {
                    into.set(c[p], new ArrayList<>());
                }
                if (p < k[r]) {
                    pieces += pieceHash(change.order(), from, to);
                }
                add(into.get(c[p]), new Piece(c[p], change, from, to));
            }
        }
        return new Kept(flatten(kept), flatten(lost), size, m, pieces);
    }

    /**
     * The hash of the piece {@code from} to {@code to} of change {@code order} kept in one run: a state's pieces are
     * summed, so that a state differing from another in one run has its sum from the other's by that run alone. Two
     * choices of one file with the same sum keep the same pieces (and so the same bytes), as far as a 64-bit hash
     * tells.
     */
    static long pieceHash(long order, long from, long to) {
        long h = mix(order * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        h = mix(h ^ (from * 0xC2B2AE3D27D4EB4FL));
        return mix(h ^ (to * 0x165667B19E3779F9L));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** What {@code kept} leaves, the operations it lost counted as a cut's list of them says them. */
    Choice choice(Kept kept) {
        int[] groups = {0};
        lostGroups(kept, new LostGroups() {
            @Override
            public void wholeWrites(FileChange first, long end) {
                groups[0]++;
            }

            @Override
            public void partOf(FileChange change, long lostBytes, List<Piece> pieces) {
                groups[0]++;
            }
        });
        return new Choice(kept.size(), kept.pieces(), groups[0] + truncations.length - kept.truncations());
    }

    /**
     * Says the writes {@code kept} lost, in the order made: a run of writes lost whole, each starting where the one
     * before ended, as one; a write lost on some pages only, with those pages.
     */
    static void lostGroups(Kept kept, LostGroups out) {
        FileChange runStart = null;
        long runEnd = 0;
        List<Piece> lost = kept.lost();
        for (int i = 0; i < lost.size(); i++) {
            FileChange c = lost.get(i).change();
            int lostPieces = 1;
            long lostBytes = lost.get(i).to() - lost.get(i).from();
            while (i + lostPieces < lost.size() && lost.get(i + lostPieces).change() == c) {
                lostBytes += lost.get(i + lostPieces).to() - lost.get(i + lostPieces).from();
                lostPieces++;
            }
            List<Piece> pieces = lost.subList(i, i + lostPieces);
            i += lostPieces - 1;
            boolean whole = lostBytes == c.length();
            if (runStart != null && whole && c.offset() == runEnd && c.path().equals(runStart.path())) {
                runEnd += c.length();
                continue;
            }
            if (runStart != null) {
                out.wholeWrites(runStart, runEnd);
                runStart = null;
            }
            if (whole) {
                runStart = c;
                runEnd = c.offset() + c.length();
            } else {
                out.partOf(c, lostBytes, pieces);
            }
        }
        if (runStart != null) {
            out.wholeWrites(runStart, runEnd);
        }
    }

    /** Every change kept: the choice of a state that loses nothing of this file. */
    Choice all() {
        Runs f = runsKept();
        return new Choice(Math.max(f.base, f.best), f.allPieces, 0);
    }

    /**
     * Whether keeping the first {@code k} changes of run {@code r} keeps every truncation (none of its later changes
     * is one): then {@link #withRunAt} says what it leaves, by that run alone.
     */
    boolean keepsEveryTruncation(int r, int k) {
        return truncationsWith(r, k) == truncations.length;
    }

    /**
     * What keeping the first {@code k} changes of run {@code r} and every other change leaves, when that keeps every
     * truncation ({@link #keepsEveryTruncation}): as {@link #choice}{@code (keep(...))} says, from the run's own
     * changes alone.
     */
    Choice withRunAt(int r, int k) {
        if (!keepsEveryTruncation(r, k)) {
            throw new IllegalArgumentException("run " + r + " at " + k + " loses a truncation");
        }
        Runs f = runsKept();
        int len = runs.get(r).changes().length;
        long size = Math.max(f.base, Math.max(f.bestRun == r ? f.second : f.best, f.contribution(r, k)));
        return new Choice(size, f.allPieces - f.prefix[r][len] + f.prefix[r][k], f.groups[r][k]);
    }

    private Runs runsKept;

    private Runs runsKept() {
        if (runsKept == null) {
            runsKept = new Runs();
        }
        return runsKept;
    }

    /**
     * Each run's changes as a state keeping every truncation keeps a prefix of them: the sums of their pieces'
     * hashes, the groups a cut says its lost ones as, and the size each leaves; the rest kept whole.
     */
    private final class Runs {
        /** The size with every truncation kept, before any page's write-back grows it. */
        final long base;
        final int lastKept;
        /** Per run, the sum of the hashes of the pieces of its first k changes, k from 0 to all. */
        final long[][] prefix;
        /** Per run, the groups the changes from its k-th on are said as, when lost: {@link #lostGroups}'s. */
        final int[][] groups;
        final long allPieces;
        /** The largest size a run kept whole leaves, the run that leaves it, and the largest of the other runs'. */
        final long best;
        final int bestRun;
        final long second;

        Runs() {
            lastKept = truncations.length == 0 ? -1 : truncations[truncations.length - 1];
            base = lastKept < 0 ? durableSize : sizeAfter[lastKept];
            prefix = new long[runs.size()][];
            groups = new int[runs.size()][];
            long all = 0;
            long first = Long.MIN_VALUE;
            long next = Long.MIN_VALUE;
            int firstRun = -1;
            for (int r = 0; r < runs.size(); r++) {
                Run run = runs.get(r);
                int[] c = run.changes();
                long[] sums = new long[c.length + 1];
                for (int p = 0; p < c.length; p++) {
                    FileChange change = changes.get(c[p]);
                    long from = Math.max(run.start(), change.isWrite() ? change.offset() : change.newSize());
                    long to = change.isWrite() ? Math.min(run.end(), change.offset() + change.length()) : run.end();
                    sums[p + 1] = sums[p] + pieceHash(change.order(), from, to);
                }
                prefix[r] = sums;
                all += sums[c.length];
                int[] g = new int[c.length + 1];
                for (int p = c.length - 1; p >= 0; p--) {
                    g[p] = g[p + 1] + 1 - (p + 1 < c.length && chained(run, c[p], c[p + 1]) ? 1 : 0);
                }
                groups[r] = g;
                long whole = contribution(r, c.length);
                if (whole > first) {
                    next = first;
                    first = whole;
                    firstRun = r;
                } else if (whole > next) {
                    next = whole;
                }
            }
            allPieces = all;
            best = first;
            bestRun = firstRun;
            second = next;
        }

        /** The size run {@code r} leaves written back after its first {@code k} changes, as {@link #keep} has it. */
        long contribution(int r, int k) {
            if (k == 0) {
                return Long.MIN_VALUE;
            }
            int j = runs.get(r).changes()[k - 1];
            return j > lastKept ? Math.min(sizeAfter[j], runs.get(r).end()) : Long.MIN_VALUE;
        }

        /** Whether writes {@code i} and {@code j}, both lost within run {@code run}, are said as one: {@link #lostGroups}. */
        private boolean chained(Run run, int i, int j) {
            FileChange a = changes.get(i);
            FileChange b = changes.get(j);
            return a.isWrite() && b.isWrite() && within(run, a) && within(run, b)
                    && b.offset() == a.offset() + a.length() && b.path().equals(a.path());
        }

        private boolean within(Run run, FileChange w) {
            return w.offset() >= run.start() && w.offset() + w.length() <= run.end();
        }
    }

    /** Adds {@code piece} to a change's pieces, in page order, joined to the one before where it starts at its end. */
    private static void add(List<Piece> pieces, Piece piece) {
        Piece before = pieces.isEmpty() ? null : pieces.get(pieces.size() - 1);
        if (before != null && before.to() == piece.from()) {
            pieces.set(pieces.size() - 1, new Piece(piece.index(), piece.change(), before.from(), piece.to()));
        } else {
            pieces.add(piece);
        }
    }

    private static List<Piece> flatten(List<List<Piece>> byChange) {
        List<Piece> out = new ArrayList<>();
        for (List<Piece> p : byChange) {
            if (p != null) {
                out.addAll(p);
            }
        }
        return Collections.unmodifiableList(out);
    }
}

package io.flushcheck.powercut.internal.files;

/**
 * A set of {@link TreeSum}s kept as their four lanes in one array (open addressing, linear probing), for an epoch's
 * hundreds of thousands of state digests: no object a digest, so the set costs what its lanes do and nothing for the
 * collector to copy but one array.
 */
final class DigestSet {

    private long[] lanes;
    private int mask;
    private int size;
    private boolean hasZero;

    /** A set sized for about {@code expected} digests; it grows past them. */
    DigestSet(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected) * 2 - 1) * 2;
        lanes = new long[capacity * 4];
        mask = capacity - 1;
    }

    /** Adds {@code s}; false when it was there already. */
    boolean add(TreeSum s) {
        if (s.a() == 0 && s.b() == 0 && s.c() == 0 && s.d() == 0) {
            // The all-zero lanes mark a free slot: the zero sum is kept apart.
            boolean added = !hasZero;
            hasZero = true;
            return added;
        }
        if ((size + 1) * 2 > mask + 1) {
            grow();
        }
        if (!put(lanes, mask, s.a(), s.b(), s.c(), s.d())) {
            return false;
        }
        size++;
        return true;
    }

    /** Places the lanes in {@code table}; false when they are there already. */
    private static boolean put(long[] table, int mask, long a, long b, long c, long d) {
        // The lanes are SHA-256 sums: any one of them is spread enough to index by.
        for (int i = (int) (a ^ (a >>> 32)) & mask; ; i = (i + 1) & mask) {
            int at = i * 4;
            if (table[at] == 0 && table[at + 1] == 0 && table[at + 2] == 0 && table[at + 3] == 0) {
                table[at] = a;
                table[at + 1] = b;
                table[at + 2] = c;
                table[at + 3] = d;
                return true;
            }
            if (table[at] == a && table[at + 1] == b && table[at + 2] == c && table[at + 3] == d) {
                return false;
            }
        }
    }

    private void grow() {
        long[] old = lanes;
        int capacity = (mask + 1) * 2;
        long[] table = new long[capacity * 4];
        for (int at = 0; at < old.length; at += 4) {
            if (old[at] != 0 || old[at + 1] != 0 || old[at + 2] != 0 || old[at + 3] != 0) {
                put(table, capacity - 1, old[at], old[at + 1], old[at + 2], old[at + 3]);
            }
        }
        lanes = table;
        mask = capacity - 1;
    }
}

package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.common.Values;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --shard I/N}: the I-th of N shares of a recording's states, counted from 1 as a CI matrix or an
 * indexed job numbers its runs (an indexed job counts from 0: give it {@code $((INDEX+1))/N}).
 */
record Shard(int index, int count) {

    /** The most shares a recording is split into: more than any matrix runs, few enough to stay an int. */
    static final int MAX_SHARDS = 1_000_000;

    /** The states' share as {@link io.flushcheck.powercut.CrashStates#check(int, int, int,
     *  io.flushcheck.powercut.CrashStates.Verification)} counts it: from 0. */
    int fromZero() {
        return index - 1;
    }

    static Shard parse(String value) throws UsageException {
        int slash = value.indexOf('/');
        if (slash < 0) {
            throw new UsageException("--shard takes I/N, the I-th of N shares from 1 to N (1/4, 2/4, ...), not '"
                    + value + "'");
        }
        int n = Values.intValue("--shard's N", value.substring(slash + 1), 1, MAX_SHARDS);
        int i = Values.intValue("--shard's I", value.substring(0, slash), 1, MAX_SHARDS);
        if (i > n) {
            throw new UsageException("--shard " + value + ": I is from 1 to N, the shares' count");
        }
        return new Shard(i, n);
    }

    /**
     * A document's {@code "shard"}, as {@link #toString} wrote it: digits, a slash, digits, with the bounds
     * {@code --shard} has.
     *
     * @throws IllegalArgumentException naming the field when it is not one
     */
    static Shard inDocument(String value) {
        Matcher m = WRITTEN.matcher(value);
        if (m.matches()) {
            // At most ten digits each: a long holds them, and the bounds below are checked before a narrowing.
            long i = Long.parseLong(m.group(1));
            long n = Long.parseLong(m.group(2));
            if (1 <= i && i <= n && n <= MAX_SHARDS) {
                return new Shard((int) i, (int) n);
            }
        }
        throw new IllegalArgumentException("\"shard\" is " + Brief.of(value) + ", not I/N with 1 <= I <= N <= "
                + MAX_SHARDS);
    }

    private static final Pattern WRITTEN = Pattern.compile("([0-9]{1,10})/([0-9]{1,10})");

    @Override
    public String toString() {
        return index + "/" + count;
    }
}

package io.flushcheck.cli;

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

    @Override
    public String toString() {
        return index + "/" + count;
    }
}

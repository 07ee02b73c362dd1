package io.flushcheck.probe;

import com.sun.jna.Pointer;
import io.flushcheck.storage.StorageFacts;
import io.flushcheck.storage.StorageInspector;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * flushcheck's own probe loop (SyncProbe, with its brackets and idle windows) in a JVM of its own, each round kept so
 * that a bench can say where a difference goes: the native calls are the probe's, forwarded through a class that
 * notes when each fdatasync ran, how long it took and its place in its stretch (a window's control writes go to
 * another file). In the package of the probe, so that it can hand the probe those calls: compile it against the
 * core jar, with the core tests' {@code ForwardingSyncCalls} (as sync-figures.sh does), and put it on the class path
 * before it.
 *
 * <pre>
 * usage: java -cp CLASSES:cli/target/flushcheck.jar io.flushcheck.probe.ProbeRounds DIR MODE BLOCK ROUNDS [fallocate]
 *   MODE       append-fdatasync or overwrite-fdatasync; fallocate: the etcd preset's layout (append-fdatasync)
 * prints, as sync-loop.c -b does (microseconds):
 *   SYNC_P50 SYNC_P99 WRITE_P50 ROUND_P50 ROUND_P99     the probe's own figures, over the rounds its latencies hold
 *   by-place 1:COUNT P50 P99 2:... 3:... 4-10:... 11+:... every round's fdatasync by its place in its stretch
 *   first-tenth P50 P99 rest P50 P99                    the first tenth of the rounds against the rest
 *   compiling MILLIS                                    what the JVM's compilers spent while the measured rounds ran
 *   warm-up MILLIS COMPILING                            the time before the measured rounds (the probe's warm-up and
 *                                                       its file's layout) and what the compilers spent in it
 * </pre>
 */
public final class ProbeRounds {

    /**
     * The probe's native calls, each fdatasync timed and placed; every other call forwarded as it is
     * ({@code ForwardingSyncCalls}, the core tests' forwarder, which sync-figures.sh compiles beside this file).
     */
    private static final class Noting extends ForwardingSyncCalls {
        final long[] nanos;
        final int[] place;
        int syncs;
        int syncedFd = -1;
        int sinceWindow;
        /**
         * The first sync of the probe file's: those before are the warm-up's (on files of its own). Noted like any
         * other and left out afterwards, so that the calls take the same branches in the warm-up as in the rounds
         * and the code the JIT compiled for the warm-up stays good for them.
         */
        int firstRound;

        Noting(int rounds) {
            // Room for the warm-up's syncs too, so that no sync takes another branch.
            nanos = new long[rounds + 2 * SyncProbe.WARM_UP_ROUNDS];
            place = new int[nanos.length];
        }

        private void wrote(int fd) {
            if (syncedFd >= 0 && fd != syncedFd) {
                sinceWindow = 0; // a window's control write
            }
        }

        @Override
        public void fdatasync(int fd) {
            syncedFd = fd;
            long t0 = System.nanoTime();
            real.fdatasync(fd);
            long t1 = System.nanoTime();
            if (syncs < nanos.length) {
                nanos[syncs] = t1 - t0;
                place[syncs] = ++sinceWindow;
            }
            syncs++;
        }

        @Override
        public long write(int fd, Pointer buffer, long count) {
            wrote(fd);
            return real.write(fd, buffer, count);
        }

        @Override
        public long pwrite(int fd, Pointer buffer, long count, long offset) {
            wrote(fd);
            return real.pwrite(fd, buffer, count, offset);
        }

        @Override
        public int createExclusiveAt(int dirFd, String name, String shown, boolean dsync) {
            firstRound = syncs;
            sinceWindow = 0;
            return real.createExclusiveAt(dirFd, name, shown, dsync);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4 || args.length > 5) {
            System.err.println("usage: ProbeRounds DIR append-fdatasync|overwrite-fdatasync BLOCK ROUNDS [fallocate]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        SyncMode mode = SyncMode.parse(args[1]);
        int block = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        boolean fallocate = args.length == 5 && args[4].equals("fallocate");
        StorageInspector inspector = new StorageInspector();
        StorageFacts facts = inspector.inspect(dir);
        Noting calls = new Noting(rounds);
        ProbePlan plan = new ProbePlan(List.of(mode), block, rounds, false, 0, fallocate);
        var compilers = java.lang.management.ManagementFactory.getCompilationMXBean();
        long[] start = {compilers.getTotalCompilationTime(), System.nanoTime(), 0, 0, 0};
        boolean mark = Boolean.getBoolean("probe.mark");
        // The measured rounds start when the probe says its mode has done 0 of them: what came before is the
        // warm-up (and the file's layout).
        ProbeListener measured = (m, done, total) -> {
            if (done == 0) {
                start[2] = compilers.getTotalCompilationTime();
                start[3] = System.nanoTime();
                if (mark) {
                    System.out.println("=== measured rounds start");
                }
            } else if (done == total) {
                start[4] = compilers.getTotalCompilationTime();
                if (mark) {
                    System.out.println("=== measured rounds end");
                }
            }
        };
        SyncCost c = SyncProbe.with(calls, facts, inspector).run(dir, plan, measured).get(0);
        long compiled = start[4] - start[2];
        System.out.printf(Locale.ROOT, "%.1f %.1f %.1f %.1f %.1f%n", c.syncLatencies().percentileMicros(50),
                c.syncLatencies().percentileMicros(99), c.writeLatencies().percentileMicros(50), c.p50Micros(),
                c.p99Micros());
        int n = Math.min(calls.syncs - calls.firstRound, rounds);
        long[] nanos = Arrays.copyOfRange(calls.nanos, calls.firstRound, calls.firstRound + n);
        int[] place = Arrays.copyOfRange(calls.place, calls.firstRound, calls.firstRound + n);
        StringBuilder line = new StringBuilder("by-place");
        int[][] places = {{1, 1}, {2, 2}, {3, 3}, {4, 10}, {11, Integer.MAX_VALUE}};
        for (int[] p : places) {
            long[] v = java.util.stream.IntStream.range(0, n)
                    .filter(i -> place[i] >= p[0] && place[i] <= p[1]).mapToLong(i -> nanos[i]).toArray();
            String name = p[0] == p[1] ? String.valueOf(p[0]) : p[1] == Integer.MAX_VALUE ? p[0] + "+" : p[0] + "-" + p[1];
            line.append(String.format(Locale.ROOT, " %s:%d %.1f %.1f", name, v.length, pct(v, 50), pct(v, 99)));
        }
        System.out.println(line);
        int tenth = Math.max(1, n / 10);
        long[] head = Arrays.copyOfRange(nanos, 0, tenth);
        long[] tail = Arrays.copyOfRange(nanos, tenth, n);
        System.out.printf(Locale.ROOT, "first-tenth %.1f %.1f rest %.1f %.1f%n", pct(head, 50), pct(head, 99),
                pct(tail, 50), pct(tail, 99));
        System.out.println("compiling " + compiled);
        System.out.printf(Locale.ROOT, "warm-up %.1f %d%n", (start[3] - start[1]) / 1e6, start[2] - start[0]);
    }

    /** The p-th percentile by nearest rank, as sync-loop.c's; NaN of nothing. */
    private static double pct(long[] v, double p) {
        if (v.length == 0) {
            return Double.NaN;
        }
        long[] s = v.clone();
        Arrays.sort(s);
        long rank = Math.max(1, (long) Math.ceil(p / 100.0 * s.length - 1e-6));
        return s[(int) rank - 1] / 1000.0;
    }
}

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * sync-loop.c's loop in Java, through JNA direct mapping bound as flushcheck's probe binds it, with each thing the
 * probe does around its syncs switched on one at a time, and each round kept so that a bench can say where a
 * difference from the C loop goes: the JNA call, the bracket reads, the idle windows, the first rounds of a cold
 * JVM (its code interpreted, then compiled while the loop runs).
 *
 * <pre>
 * usage: java -cp cli/target/flushcheck.jar cli/bench/SyncRounds.java [-s STAT]... [-i|-I] [-c] [-w WARM] [-b]
 *            DIR LAYOUT BLOCK SIZE
 *   LAYOUT, BLOCK, SIZE, -s, -i, -I, -c   as sync-loop.c's
 *   -w WARM  WARM rounds first, on a file of their own in the same layout, neither timed nor kept
 *   -b       after the line sync-loop.c prints, a breakdown, one line each (microseconds):
 *              by-place     sync count p50 p99 of the rounds by their place in their stretch, as sync-loop.c -b
 *              first-tenth  sync p50 p99 of the first tenth of the rounds, then of the other nine tenths: a cold
 *                           JVM interprets the loop at first and compiles it while it runs
 *              brackets     with -s, p50 of the time the two bracket reads of a round take, together
 * </pre>
 */
public final class SyncRounds {

    /** Bound as flushcheck's NativeSyncCalls binds libc: direct mapping in the process's global scope. */
    static final class Libc {
        static native long write(int fd, Pointer buf, long count) throws LastErrorException;

        static native long pwrite(int fd, Pointer buf, long count, long offset) throws LastErrorException;

        static native int fdatasync(int fd) throws LastErrorException;

        static native int fsync(int fd) throws LastErrorException;

        static native int open(String path, int flags, int mode) throws LastErrorException;

        static native int close(int fd) throws LastErrorException;

        static native int fallocate(int fd, int mode, long offset, long length) throws LastErrorException;
    }

    private static final long STRETCH = 10_000_000L;
    private static final int O_WRONLY = 01;
    private static final int O_CREAT = 0100;
    private static final int O_EXCL = 0200;
    private static final int O_NOFOLLOW = 0400000;
    private static final int O_CLOEXEC = 02000000;

    private static final ByteBuffer STAT = ByteBuffer.allocate(512);

    public static void main(String[] args) throws IOException {
        List<FileChannel> stats = new ArrayList<>();
        int idle = 0;
        boolean control = false;
        boolean breakdown = false;
        int warm = 0;
        int a = 0;
        for (; a < args.length && args[a].startsWith("-"); a++) {
            switch (args[a]) {
                case "-s" -> stats.add(FileChannel.open(Path.of(args[++a]), StandardOpenOption.READ));
                case "-i" -> idle = 1;
                case "-I" -> idle = 2;
                case "-c" -> control = true;
                case "-b" -> breakdown = true;
                case "-w" -> warm = Integer.parseInt(args[++a]);
                default -> usage();
            }
        }
        if (args.length - a != 4) {
            usage();
        }
        Native.register(Libc.class, NativeLibrary.getProcess());
        Path dir = Path.of(args[a]);
        String layout = args[a + 1];
        int bs = Integer.parseInt(args[a + 2]);
        long size = Long.parseLong(args[a + 3]);
        boolean over = layout.equals("overwrite");
        boolean falloc = layout.equals("fallocate");
        if (!(over || falloc || layout.equals("append")) || bs < 1 || size < bs) {
            usage();
        }
        int rounds = (int) (size / bs);
        long pid = ProcessHandle.current().pid();
        Path path = dir.resolve(".bench-loop-" + pid + ".probe");
        Path cpath = dir.resolve(".bench-loop-" + pid + ".probe-control");
        Path wpath = dir.resolve(".bench-loop-" + pid + ".probe-warm");
        int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
        try (Memory buf = new Memory(bs)) {
            for (int i = 0; i < bs; i++) {
                buf.setByte(i, (byte) (0x5A ^ i));
            }
            if (warm > 0) {
                // Its own file in the same layout, so the measured file starts as the C loop's does.
                int wfd = Libc.open(wpath.toString(), flags, 0600);
                try {
                    layout(wfd, buf, bs, Math.max(size, (long) warm * bs), over, falloc);
                    loop(wfd, -1, buf, bs, warm, over, List.of(), 0, new long[3][warm], new int[warm]);
                } finally {
                    Libc.close(wfd);
                    Files.deleteIfExists(wpath);
                }
            }
            int fd = Libc.open(path.toString(), flags, 0600);
            int cfd = -1;
            try {
                cfd = control ? Libc.open(cpath.toString(), flags, 0600) : -1;
                layout(fd, buf, bs, size, over, falloc);
                long[][] t = new long[3][rounds];
                int[] first = new int[rounds];
                loop(fd, cfd, buf, bs, rounds, over, stats, idle, t, first);
                report(t, first, breakdown && !stats.isEmpty(), breakdown);
            } finally {
                Libc.close(fd);
                Files.deleteIfExists(path);
                if (cfd >= 0) {
                    Libc.close(cfd);
                }
                Files.deleteIfExists(cpath);
            }
        }
    }

    private static void layout(int fd, Memory buf, int bs, long size, boolean over, boolean falloc) {
        if (falloc) {
            Libc.fallocate(fd, 0, 0, size);
        }
        if (over) {
            for (long i = 0; i < size / bs; i++) {
                Libc.pwrite(fd, buf, bs, i * bs);
            }
            Libc.fsync(fd);
        }
    }

    /** t[0] write, t[1] sync, t[2] the bracket reads, nanoseconds; first: each round's place in its stretch. */
    private static void loop(int fd, int cfd, Memory buf, int bs, int rounds, boolean over, List<FileChannel> stats,
                             int idle, long[][] t, int[] first) {
        long stretchStart = System.nanoTime();
        int stretchFirst = 0;
        for (int i = 0; i < rounds; i++) {
            first[i] = i - stretchFirst + 1;
            long t0 = System.nanoTime();
            long n = over ? Libc.pwrite(fd, buf, bs, (long) i * bs) : Libc.write(fd, buf, bs);
            long t1 = System.nanoTime();
            if (n != bs) {
                throw new IllegalStateException("short write");
            }
            readStats(stats);
            long s0 = System.nanoTime();
            Libc.fdatasync(fd);
            long s1 = System.nanoTime();
            readStats(stats);
            long s2 = System.nanoTime();
            t[0][i] = t1 - t0;
            t[1][i] = s1 - s0;
            t[2][i] = (s0 - t1) + (s2 - s1);
            long stretch = System.nanoTime() - stretchStart;
            if (idle != 0 && stretch >= STRETCH) {
                for (int k = stretchFirst; cfd >= 0 && k <= i; k++) {
                    Libc.write(cfd, buf, bs);
                }
                stretchFirst = i + 1;
                if (idle == 1) {
                    for (long w0 = System.nanoTime(), left = stretch / 4; left > 0; left = stretch / 4 - (System.nanoTime() - w0)) {
                        LockSupport.parkNanos(left);
                    }
                } else {
                    for (long w0 = System.nanoTime(); System.nanoTime() - w0 < stretch; ) {
                        Thread.onSpinWait();
                    }
                }
                stretchStart = System.nanoTime();
            }
        }
    }

    private static void readStats(List<FileChannel> stats) {
        for (FileChannel ch : stats) {
            STAT.clear();
            try {
                if (ch.read(STAT, 0) <= 0) {
                    throw new IllegalStateException("empty stat");
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static void report(long[][] t, int[] first, boolean bracketed, boolean breakdown) {
        int n = t[0].length;
        long[] round = new long[n];
        for (int i = 0; i < n; i++) {
            round[i] = t[0][i] + t[1][i];
        }
        System.out.printf(Locale.ROOT, "%.1f %.1f %.1f %.1f %.1f%n", pct(t[1], 50), pct(t[1], 99), pct(t[0], 50),
                pct(round, 50), pct(round, 99));
        if (!breakdown) {
            return;
        }
        // The rounds by their place in their stretch: a window's cost, if any, falls on the rounds right after it.
        int[][] places = {{1, 1}, {2, 2}, {3, 3}, {4, 10}, {11, Integer.MAX_VALUE}};
        StringBuilder line = new StringBuilder("by-place");
        for (int[] p : places) {
            long[] v = java.util.stream.IntStream.range(0, n).filter(i -> first[i] >= p[0] && first[i] <= p[1])
                    .mapToLong(i -> t[1][i]).toArray();
            line.append(String.format(Locale.ROOT, " %s:%d %.1f %.1f", p[0] == p[1] ? String.valueOf(p[0])
                    : p[1] == Integer.MAX_VALUE ? p[0] + "+" : p[0] + "-" + p[1], v.length, pct(v, 50), pct(v, 99)));
        }
        System.out.println(line);
        int tenth = Math.max(1, n / 10);
        long[] head = Arrays.copyOfRange(t[1], 0, tenth);
        long[] tail = Arrays.copyOfRange(t[1], tenth, n);
        System.out.printf(Locale.ROOT, "first-tenth %.1f %.1f rest %.1f %.1f%n", pct(head, 50), pct(head, 99),
                pct(tail, 50), pct(tail, 99));
        if (bracketed) {
            System.out.printf(Locale.ROOT, "brackets %.2f%n", pct(t[2], 50));
        }
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

    private static void usage() {
        System.err.println("usage: SyncRounds [-s STAT]... [-i|-I] [-c] [-w WARM] [-b] DIR append|fallocate|overwrite BLOCK SIZE");
        System.exit(2);
    }
}

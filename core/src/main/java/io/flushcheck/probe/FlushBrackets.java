package io.flushcheck.probe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Whether a flush got all the way down a device chain while one call ran: the completed-flush counters
 * ({@code /sys/block/<dev>/stat} field 16) of every level, read just before and just after it. By the
 * rule the counts follow ({@link DeviceDelta#flushesReached}), a flush got down when every level above
 * the bottom completed one and the disks at the bottom did. The kernel counts a flush before it wakes what
 * waits for it, so a sync that waited for a cache flush always finds one in its bracket, however busy the
 * disk and however many other syncs shared that flush. A sync that does not reach the disk finds one only
 * when other work's flushes happen to complete meanwhile at every level, as often as an idle bracket of the
 * same length does (never, where a level in between has no barriers). Each stat file stays open and is
 * read into one buffer: a reading costs a few microseconds.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FlushBrackets implements AutoCloseable {

    private static final int FLUSH_FIELD = 15;

    private final List<FileChannel> files = new ArrayList<>();
    private final boolean[] terminal;
    private final ByteBuffer buffer = ByteBuffer.allocate(512);

    private FlushBrackets(boolean[] terminal) {
        this.terminal = terminal;
    }

    /**
     * Brackets on every level's stat file, {@code terminal[i]} telling which are at the bottom; null when
     * there are none or one cannot be read.
     */
    static FlushBrackets open(List<Path> statFiles, boolean[] terminal) {
        if (statFiles.isEmpty()) {
            return null;
        }
        FlushBrackets b = new FlushBrackets(terminal.clone());
        try {
            for (Path p : statFiles) {
                b.files.add(FileChannel.open(p, StandardOpenOption.READ));
            }
            if (b.read(new long[statFiles.size()])) {
                return b;
            }
        } catch (IOException e) {
            // no brackets: the other counters still judge
        }
        b.close();
        return null;
    }

    /** A reading's array, one counter per device. */
    long[] newReading() {
        return new long[files.size()];
    }

    /** Reads every device's completed flushes into {@code into}; false when one cannot be read. */
    boolean read(long[] into) {
        for (int i = 0; i < into.length; i++) {
            long v = flushes(files.get(i));
            if (v < 0) {
                return false;
            }
            into[i] = v;
        }
        return true;
    }

    /**
     * How many flushes got all the way down between the two readings: the fewest any level above the
     * bottom completed, and no more than the bottom's disks completed together.
     */
    int flushesDown(long[] before, long[] after) {
        long bottom = 0;
        long down = Long.MAX_VALUE;
        for (int i = 0; i < before.length; i++) {
            long d = after[i] - before[i];
            if (terminal[i]) {
                bottom += d;
            } else {
                down = Math.min(down, d);
            }
        }
        return (int) Math.max(0, Math.min(Math.min(down, bottom), Integer.MAX_VALUE));
    }

    private long flushes(FileChannel ch) {
        buffer.clear();
        try {
            int n = ch.read(buffer, 0);
            if (n <= 0) {
                return -1;
            }
        } catch (IOException e) {
            return -1;
        }
        return field(buffer.array(), buffer.position(), FLUSH_FIELD);
    }

    /** The {@code index}-th whitespace-separated decimal field of the first {@code length} bytes, or -1. */
    static long field(byte[] b, int length, int index) {
        int i = 0;
        int field = -1;
        while (i < length) {
            while (i < length && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n')) {
                i++;
            }
            if (i >= length) {
                break;
            }
            field++;
            long v = 0;
            boolean digits = false;
            while (i < length && b[i] >= '0' && b[i] <= '9') {
                v = v * 10 + (b[i] - '0');
                digits = true;
                i++;
            }
            if (field == index) {
                return digits ? v : -1;
            }
            while (i < length && b[i] != ' ' && b[i] != '\t' && b[i] != '\n') {
                i++;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        for (FileChannel ch : files) {
            try {
                ch.close();
            } catch (IOException e) {
                // a sysfs file: nothing to flush
            }
        }
    }

    /**
     * What the brackets of one mode showed: of its syncs, how many met at least k flushes that got all
     * the way down (every level, the bottom's disks together), for k from 1 to {@link #DEPTH}; of the idle
     * brackets of the same lengths taken between its stretches, how many did.
     *
     * <p>More flushes tell where one cannot. Where other work keeps a flush in flight nearly all the
     * time, almost every bracket as long as a sync meets one. But a sync that waits for a flush of its own
     * most often waits for the one in flight to end first and then for its own (a journal commit on a disk
     * without FUA takes two: one before its record, one after), so it meets more of them than an idle
     * bracket of the same length does, which only sees other work's pass by.
     *
     * @param syncsMeeting    element k-1: the syncs that met at least k flushes
     * @param controlsMeeting element k-1: the idle brackets that met at least k flushes
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Tally(int syncs, List<Integer> syncsMeeting, int controls, List<Integer> controlsMeeting) {

        /** How many flushes a bracket is counted up to. */
        public static final int DEPTH = 4;

        public Tally {
            syncsMeeting = List.copyOf(syncsMeeting);
            controlsMeeting = List.copyOf(controlsMeeting);
            if (syncsMeeting.size() != DEPTH || controlsMeeting.size() != DEPTH) {
                throw new IllegalArgumentException("need " + DEPTH + " counts each, not " + syncsMeeting + " and "
                        + controlsMeeting);
            }
        }

        /**
         * A tally from arrays of at most {@link #DEPTH} counts (element k-1: brackets that met at least k
         * flushes); counts left out are 0.
         */
        public static Tally of(int syncs, int[] syncsMeeting, int controls, int[] controlsMeeting) {
            return new Tally(syncs, padded(syncsMeeting), controls, padded(controlsMeeting));
        }

        private static List<Integer> padded(int[] counts) {
            if (counts.length > DEPTH) {
                throw new IllegalArgumentException("at most " + DEPTH + " counts, not " + counts.length);
            }
            Integer[] out = new Integer[DEPTH];
            for (int k = 0; k < DEPTH; k++) {
                out[k] = k < counts.length ? counts[k] : 0;
            }
            return List.of(out);
        }

        /** Adds one bracket that met {@code flushes} flushes to {@code meeting} (element k-1: at least k). */
        static void count(int flushes, int[] meeting) {
            for (int k = 0; k < Math.min(flushes, meeting.length); k++) {
                meeting[k]++;
            }
        }

        /** Both tallies together. */
        public Tally plus(Tally other) {
            int[] s = new int[DEPTH];
            int[] c = new int[DEPTH];
            for (int k = 0; k < DEPTH; k++) {
                s[k] = syncsMeeting.get(k) + other.syncsMeeting.get(k);
                c[k] = controlsMeeting.get(k) + other.controlsMeeting.get(k);
            }
            return of(syncs + other.syncs, s, controls + other.controls, c);
        }

        /** Syncs that met at least one flush. */
        public int syncsMetFlush() {
            return syncsMeeting.get(0);
        }

        /** Idle brackets that met at least one flush. */
        public int controlsMetFlush() {
            return controlsMeeting.get(0);
        }

        /** Syncs that returned with no flush got all the way down while they ran. */
        public int syncsWithoutFlush() {
            return syncs - syncsMetFlush();
        }

        /**
         * An upper bound, at 99.9% confidence, on the chance that an idle bracket meets other work's
         * flush (a one-sided Clopper-Pearson bound from the controls; 1 without controls).
         */
        public double chanceUpperBound() {
            return chanceUpperBound(BOUND_ALPHA);
        }

        /** {@link #chanceUpperBound()} at confidence {@code 1 - alpha}. */
        public double chanceUpperBound(double alpha) {
            return upperBound(controlsMetFlush(), controls, alpha);
        }

        /**
         * How likely syncs that reach no disk would all have met a flush by chance, as these did: at most
         * the chance bound to the power of the syncs. Meaningful only when every sync met one.
         */
        public double chanceAllMet() {
            return chanceAllMet(BOUND_ALPHA);
        }

        /** {@link #chanceAllMet()} with the idle brackets' chance bounded at confidence {@code 1 - alpha}. */
        public double chanceAllMet(double alpha) {
            return Math.pow(chanceUpperBound(alpha), syncs);
        }

        /**
         * How likely syncs that reach no disk would have met at least {@code k} flushes at least as often
         * as these did: the binomial tail at the idle brackets' bounded chance of k, that chance first
         * raised by {@code bias} of itself (other work need not run the same while the syncs do).
         */
        public double chanceMeeting(int k, double bias) {
            return chanceMeeting(k, bias, BOUND_ALPHA);
        }

        /** {@link #chanceMeeting(int, double)} with the idle brackets' chance bounded at confidence {@code 1 - alpha}. */
        public double chanceMeeting(int k, double bias, double alpha) {
            int met = syncsMeeting.get(k - 1);
            if (met == 0) {
                return 1;
            }
            double p = Math.min(1, upperBound(controlsMeeting.get(k - 1), controls, alpha) * (1 + bias));
            return BinomialBound.tail(met, syncs, p);
        }

        /** The idle brackets' chance of a flush is bounded at 99.9% confidence. */
        public static final double BOUND_ALPHA = 0.001;

        private static double upperBound(int met, int of, double alpha) {
            return of == 0 || met >= of ? 1 : BinomialBound.upper(met, of, alpha);
        }

        /** For example "of 320 syncs, 320, 320, 301 and 250 met at least 1, 2, 3 and 4 flushes; of 230 idle brackets, ...". */
        @Override
        public String toString() {
            return "of " + syncs + " syncs, " + counts(syncsMeeting) + " met at least " + counts(depths())
                    + " flushes; of " + controls + " idle brackets, " + counts(controlsMeeting);
        }

        private static List<Integer> depths() {
            Integer[] k = new Integer[DEPTH];
            for (int i = 0; i < DEPTH; i++) {
                k[i] = i + 1;
            }
            return List.of(k);
        }

        private static String counts(List<Integer> c) {
            StringBuilder b = new StringBuilder();
            for (int k = 0; k < c.size(); k++) {
                b.append(k == 0 ? "" : k == c.size() - 1 ? " and " : ", ").append(c.get(k));
            }
            return b.toString();
        }
    }
}

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

    /** True when a flush got all the way down between the two readings: at every level, the bottom's disks together. */
    boolean met(long[] before, long[] after) {
        long bottom = 0;
        for (int i = 0; i < before.length; i++) {
            if (terminal[i]) {
                bottom += after[i] - before[i];
            } else if (after[i] <= before[i]) {
                return false;
            }
        }
        return bottom > 0;
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
     * What the brackets of one mode showed: of its syncs, how many met a flush at the bottom; of the
     * idle brackets of the same lengths taken between its stretches, how many did.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public record Tally(int syncs, int syncsMetFlush, int controls, int controlsMetFlush) {

        /** Both tallies together. */
        public Tally plus(Tally other) {
            return new Tally(syncs + other.syncs, syncsMetFlush + other.syncsMetFlush, controls + other.controls,
                    controlsMetFlush + other.controlsMetFlush);
        }

        /** Syncs that returned with no flush completed at some disk at the bottom while they ran. */
        public int syncsWithoutFlush() {
            return syncs - syncsMetFlush;
        }

        /**
         * An upper bound, at 99.9% confidence, on the chance that an idle bracket meets other work's
         * flush (a one-sided Clopper-Pearson bound from the controls; 1 without controls).
         */
        public double chanceUpperBound() {
            if (controls == 0) {
                return 1;
            }
            if (controlsMetFlush >= controls) {
                return 1;
            }
            return BinomialBound.upper(controlsMetFlush, controls, 0.001);
        }

        /**
         * How likely syncs that reach no disk would all have met a flush by chance, as these did: at most
         * the chance bound to the power of the syncs. Meaningful only when every sync met one.
         */
        public double chanceAllMet() {
            return Math.pow(chanceUpperBound(), syncs);
        }
    }
}

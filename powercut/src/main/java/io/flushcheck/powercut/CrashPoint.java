package io.flushcheck.powercut;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where one {@link RepeatedPowerCut} invocation cuts, counted in the flushes of the test's own workload
 * (from the moment the test method starts): at its end, after its k-th flush, or during its k-th flush
 * with a seeded subset of what was written since the flush before. Written as {@link RepeatedPowerCut#point()}
 * takes it: {@code end}, {@code after flush 3}, {@code during flush 9, seed 4411}.
 */
record CrashPoint(Kind kind, long flush, long seed) {

    enum Kind { END, AFTER, DURING }

    private static final Pattern AFTER = Pattern.compile("after flush (\\d+)");
    private static final Pattern DURING = Pattern.compile("during flush (\\d+), seed (-?\\d+)");

    static CrashPoint end() {
        return new CrashPoint(Kind.END, 0, 0);
    }

    static CrashPoint after(long k) {
        return new CrashPoint(Kind.AFTER, k, 0);
    }

    static CrashPoint during(long k, long seed) {
        return new CrashPoint(Kind.DURING, k, seed);
    }

    /** Reads what {@link #toString()} writes; throws with the accepted forms otherwise. */
    static CrashPoint parse(String text) {
        String t = text.trim();
        if (t.equals("end")) {
            return end();
        }
        Matcher m = AFTER.matcher(t);
        if (m.matches() && Long.parseLong(m.group(1)) > 0) {
            return after(Long.parseLong(m.group(1)));
        }
        m = DURING.matcher(t);
        if (m.matches() && Long.parseLong(m.group(1)) > 0) {
            return during(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
        }
        throw new IllegalArgumentException("not a crash point: \"" + text
                + "\" (write \"end\", \"after flush K\" or \"during flush K, seed S\", with K from 1)");
    }

    /** Arms the cut on {@code disk}, whose workload starts at {@code base} flushes. */
    void arm(SimulatedDisk disk, long base) {
        switch (kind) {
            case AFTER -> disk.cutAfterFlushes(base + flush);
            case DURING -> disk.cutDuringFlush(base + flush, seed);
            case END -> { }
        }
    }

    /** As a display name says it, with the workload's flush count where known ({@code of 14}). */
    String describe(long workloadFlushes) {
        String of = workloadFlushes > 0 ? " of " + workloadFlushes : "";
        return switch (kind) {
            case END -> "power cut after the workload";
            case AFTER -> "power cut after flush " + flush + of;
            case DURING -> "power cut during flush " + flush + of + ", seed " + seed;
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case END -> "end";
            case AFTER -> "after flush " + flush;
            case DURING -> "during flush " + flush + ", seed " + seed;
        };
    }
}

package io.flushcheck.powercut;

import io.flushcheck.powercut.internal.model.FlushSizes;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/**
 * What a program acknowledged on a {@link SimulatedDisk}, each record with the drive's failures at the time (flushes
 * and writes failed so far): the answer to the question a failing sync asks, whether the program acknowledged anything
 * after its storage said no, and whether what it acknowledged survived a cut.
 *
 * <pre>{@code
 * AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
 *     for (String r : records) {
 *         journal.append(r);            // returns once synced, or throws
 *         acknowledged.add(r);
 *     }
 * });
 * acks.assertDurable(Journal.readAll(disk.cutPower().resolve("journal")));
 * }</pre>
 *
 * A record noted once the power has gone (an armed cut, {@link RepeatedPowerCut}) is not counted: a real cut ends
 * the program before it can acknowledge anything, while in a test the workload runs on, its syncs failing. Such
 * records are kept apart ({@link #afterPowerCut()}), save a line of a watched file that a flush's reading held: it was
 * written before the cut, only read late ({@link #watchFile}). What a program that acknowledges after a failed sync loses is
 * what {@link FailingSyncs} tests, with the power on.
 *
 * <p>Not thread-safe: one program's acknowledgements, in order.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class AcknowledgedRecords {

    /** A record, with the drive's failures and completed flushes when it was noted. */
    record Ack(String record, long failuresBefore, long flushes) {
    }

    private final SimulatedDisk disk;
    private final List<Ack> acks = new ArrayList<>();
    /** Where each of {@link #acks} ends in the watched file ({@link #watchFile}), -1 when it was {@link #add}ed. */
    private final List<Long> ends = new ArrayList<>();
    /** True while the drive reads the watched file's size at its flushes: {@link #settle} ends it. */
    private boolean watching;
    private final List<String> afterPowerCut = new ArrayList<>();
    /** The flushes of a line noted after the power went, until {@link #settle} reads when it was written. */
    private static final long UNSETTLED = Long.MAX_VALUE;
    /** The drive's failures when a record was last noted with the power on. */
    private long lastFailures;
    private Throwable thrownAfterPowerCut;

    private AcknowledgedRecords(SimulatedDisk disk) {
        this.disk = disk;
    }

    /** Records acknowledged by a program on {@code disk}, none yet. */
    public static AcknowledgedRecords on(SimulatedDisk disk) {
        AcknowledgedRecords records = new AcknowledgedRecords(disk);
        disk.notes.noteRecords(records);
        return records;
    }

    /** The records of a saved recording ({@link CrashStates#load}): fixed, no disk counts for them any more. */
    static AcknowledgedRecords loaded(List<Ack> acks) {
        AcknowledgedRecords records = new AcknowledgedRecords(null);
        for (Ack a : acks) {
            records.acks.add(a);
            records.ends.add(-1L);
        }
        return records;
    }

    /** Each record with the counts noted with it, in order: what a saved recording keeps. */
    List<Ack> noted() {
        return List.copyOf(acks);
    }

    /**
     * Notes that the program acknowledged {@code record} now (its sync returned); call it before the cut. Once
     * the power has gone, the record is noted apart and not counted ({@link #afterPowerCut()}).
     */
    public void add(String record) {
        noted(record, -1);
    }

    /**
     * Has the drive read how long {@code file} is as each of its flushes completes, before the sync that asked for the
     * flush returns: the file a program appends its acknowledgements to, a line each, each noted here with
     * {@link #addLine} as it is read. A line read after the program's next sync began counts even so from the
     * flushes completed when it was written: from the flush before the first whose reading held it (never earlier
     * than when it was written; later only when it was written as that flush completed, before its sync returned).
     * A line the drive's readings did not hold (written after the last flush) counts from when it was noted. A line
     * noted after the power went counts as well when a reading held it (it was written before the cut, and read
     * late); one no reading held is noted apart ({@link #afterPowerCut()}). Call it
     * before the program starts, with the power on; {@code file} is a regular file off this disk, a program's
     * to replace or remove: only the size of the file opened now is read. The counts are settled when the workload
     * of {@link SimulatedDisk#untilPowerCut} or {@link SimulatedDisk#recordCrashStates} returns.
     *
     * @throws IllegalArgumentException when {@code file} is not a regular file off this disk
     * @throws IllegalStateException    when a file is watched already, or these are a saved recording's
     */
    public void watchFile(Path file) throws IOException {
        if (disk == null) {
            throw new IllegalStateException("the acknowledgements of a saved recording are fixed: no drive runs to "
                    + "watch " + file);
        }
        if (watching) {
            throw new IllegalStateException("a file of acknowledgements is watched already");
        }
        disk.ackCounts.watchSize(file);
        watching = true;
    }

    /**
     * Notes that the program acknowledged {@code record}, the line of the watched file ({@link #watchFile}) ending at
     * byte {@code end} (after its newline; where the file ends, for a last line without one): as {@link #add}, and
     * counted from the flushes completed when it was written. Noted once the power has gone, it counts when the
     * drive's readings held it, as {@link #watchFile} tells.
     */
    public void addLine(String record, long end) {
        if (end < 0) {
            throw new IllegalArgumentException("a line ends at a byte of its file, not at " + end);
        }
        noted(record, end);
    }

    private void noted(String record, long end) {
        if (disk == null) {
            throw new IllegalStateException("the acknowledgements of a saved recording are fixed: nothing runs to add "
                    + "to them");
        }
        long[] counts = disk.ackCounts.failuresAndFlushes();
        if (counts != null) {
            acks.add(new Ack(record, counts[0], counts[1]));
            ends.add(end);
            lastFailures = counts[0];
        } else if (watching && end >= 0) {
            // Read late, it may have been written before the cut: the sizes read at the flushes tell when
            // (settle), and until then it counts from no flush at all; one they never held goes apart there.
            long failures = disk.ackCounts.failuresEvenUnpowered();
            acks.add(new Ack(record, Math.max(failures, lastFailures), UNSETTLED));
            ends.add(end);
        } else {
            afterPowerCut.add(record);
        }
    }

    /**
     * Counts each line of the watched file from the flushes completed when it was written, by the sizes the drive
     * read ({@link #watchFile}), and ends the watch; nothing when no file is watched.
     */
    void settle() throws IOException {
        if (!watching) {
            return;
        }
        watching = false;
        try {
            settled(acks, ends, disk.ackCounts.watchedSizes());
        } finally {
            // Lines noted after the power went that no reading held were written after the last flush: not counted.
            for (int i = 0; i < acks.size(); i++) {
                if (acks.get(i).flushes() == UNSETTLED) {
                    afterPowerCut.add(acks.remove(i).record());
                    ends.remove(i);
                    i--;
                }
            }
        }
    }

    /** As {@link #settle}, after the workload threw {@code e}: a failure to settle goes with it. */
    void settleAfter(Throwable e) {
        try {
            settle();
        } catch (IOException | RuntimeException failed) {
            e.addSuppressed(failed);
        }
    }

    /**
     * Each of {@code acks} that ends at a byte of the watched file ({@code ends}, -1 for none) counted from the
     * flushes {@code sizes} bound when it was written, when that is fewer than when it was noted.
     */
    static void settled(List<Ack> acks, List<Long> ends, FlushSizes sizes) {
        for (int i = 0; i < acks.size(); i++) {
            long end = ends.get(i);
            if (end < 0) {
                continue;
            }
            long written = sizes.flushesWhenWritten(end);
            Ack a = acks.get(i);
            if (written >= 0 && written < a.flushes()) {
                acks.set(i, new Ack(a.record(), a.failuresBefore(), written));
            }
        }
    }

    /**
     * The records the program acknowledged after the power had gone, in order, not counted: a real cut would
     * have ended the program first.
     */
    public List<String> afterPowerCut() {
        return List.copyOf(afterPowerCut);
    }

    /** What the workload threw after the power had gone ({@link SimulatedDisk#untilPowerCut}), or null. */
    public Throwable thrownAfterPowerCut() {
        return thrownAfterPowerCut;
    }

    void thrownAfterPowerCut(Throwable t) {
        thrownAfterPowerCut = t;
    }

    /** Every record acknowledged, in order. */
    public List<String> all() {
        return acks.stream().map(Ack::record).toList();
    }

    /**
     * The records acknowledged when at most {@code flushes} flushes of the drive had completed (counted from
     * its creation, as {@link SimulatedDisk#flushes()}), in order: what a crash state with those flushes
     * completed must keep ({@link CrashStates}). A record's sync returned after the flush that made it
     * durable, so the count noted with it is never below that flush's.
     */
    public List<String> acknowledgedBy(long flushes) {
        return acks.stream().filter(a -> a.flushes <= flushes).map(Ack::record).toList();
    }

    /** The records acknowledged after the drive had failed a flush or a write: a careful program has none. */
    public List<String> afterFirstFailure() {
        return acks.stream().filter(a -> a.failuresBefore > 0).map(Ack::record).toList();
    }

    /** The acknowledged records missing from {@code survived} (what the test read back after the cut), in order. */
    public List<String> lost(Collection<String> survived) {
        Set<String> kept = new HashSet<>(survived);
        return all().stream().filter(r -> !kept.contains(r)).toList();
    }

    /** "the cut discarded: " and the first {@code shown} of {@code discarded}, and how many more. */
    static String discardedSummary(List<String> discarded, int shown) {
        int n = Math.min(shown, discarded.size());
        return "the cut discarded: " + String.join("; ", discarded.subList(0, n))
                + (n < discarded.size() ? ", and " + (discarded.size() - n) + " more" : "");
    }

    /**
     * Passes when every acknowledged record is in {@code survived}; otherwise fails naming the lost ones and, of them,
     * those acknowledged after the drive's first failure, what the cut discarded, and the writes the drive lost or
     * misdirected ({@link WriteFault#lost()}, {@link WriteFault#misdirectedTo}).
     */
    public void assertDurable(Collection<String> survived) {
        List<String> lost = lost(survived);
        if (lost.isEmpty()) {
            return;
        }
        List<String> late = new ArrayList<>(afterFirstFailure());
        late.retainAll(lost);
        String message = lost.size() + " of " + acks.size() + " acknowledged records did not survive the cut: "
                + String.join(", ", lost);
        if (!afterPowerCut.isEmpty()) {
            message += " (" + afterPowerCut.size() + " more, acknowledged after the power went, were not counted)";
        }
        if (!late.isEmpty()) {
            message += "; " + (late.size() == lost.size() ? "all" : late.size()) + " of them acknowledged after the drive"
                    + " had failed a sync (" + String.join(", ", late) + "): the program carried on after its storage"
                    + " reported an error";
        }
        List<PowerCut> cuts = disk == null ? List.of() : disk.cuts();
        List<String> discarded = cuts.isEmpty() ? List.of() : cuts.get(cuts.size() - 1).discarded();
        if (!discarded.isEmpty()) {
            message += "; " + discardedSummary(discarded, 5);
        }
        String lies = disk == null ? "" : disk.liedWritesNote();
        if (!lies.isEmpty()) {
            message += "; " + lies;
        }
        throw new AssertionError(message);
    }

    /** How long {@link #readBack(Callable)} waits for its reader before it calls the outcome {@code HUNG}. */
    public static final Duration READ_BACK_TIME = Duration.ofMinutes(1);

    /**
     * Runs {@code reader} (what the program reads back after a cut, damaged or not) and tells its outcome apart by
     * comparing what it returned with what was acknowledged ({@link ReadBack.Outcome}): detected, intact, silent
     * corruption, silent loss, crashed, or hung after {@link #READ_BACK_TIME}. Records noted after the power went
     * ({@link #afterPowerCut()}) may be returned or not.
     */
    public ReadBack readBack(Callable<? extends Collection<String>> reader) {
        return readBack(reader, READ_BACK_TIME);
    }

    /** As {@link #readBack(Callable)}, waiting {@code time} for the reader. */
    public ReadBack readBack(Callable<? extends Collection<String>> reader, Duration time) {
        FutureTask<Collection<String>> task = new FutureTask<>(() -> {
            Collection<String> read = reader.call();
            return read == null ? List.of() : List.copyOf(read);
        });
        Thread t = new Thread(task, "flushcheck read back");
        t.setDaemon(true); // a hung reader must not keep the JVM alive
        t.start();
        String damage = damage();
        try {
            return judge(task.get(time.toNanos(), TimeUnit.NANOSECONDS), damage);
        } catch (TimeoutException e) {
            t.interrupt();
            return new ReadBack(ReadBack.Outcome.HUNG, List.of(), null, damage + "the reader did not return in " + time
                    + " (" + acks.size() + " records were acknowledged)");
        } catch (ExecutionException e) {
            Throwable thrown = e.getCause();
            boolean crashed = crashed(thrown);
            return new ReadBack(crashed ? ReadBack.Outcome.CRASHED : ReadBack.Outcome.DETECTED, List.of(), thrown,
                    damage + "the reader " + (crashed ? "broke" : "failed") + ": " + thrown + " (" + acks.size()
                    + " records were acknowledged)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            t.interrupt();
            throw new IllegalStateException("interrupted while reading back", e);
        }
    }

    /** A throwable that says the reader broke on what it read rather than noticed it. */
    private static boolean crashed(Throwable t) {
        return t instanceof Error || t instanceof NullPointerException || t instanceof IndexOutOfBoundsException
                || t instanceof ClassCastException || t instanceof ArithmeticException
                || t instanceof NegativeArraySizeException;
    }

    /** "what was done to the disk: " or nothing. */
    private String damage() {
        List<String> done = disk == null ? List.of() : disk.notes.damage();
        return done.isEmpty() ? "" : String.join("; ", done) + ": ";
    }

    private ReadBack judge(Collection<String> returned, String damage) {
        return judged(all(), afterPowerCut, returned, damage);
    }

    /**
     * The outcome of a read back that returned {@code returned} without an error, told apart as
     * {@link #readBack(Callable)} tells it: intact when every one of {@code acknowledged} and nothing else came back,
     * silent corruption when a record never acknowledged came back, silent loss when acknowledged ones are missing and
     * nothing unknown came back. Records of {@code mayBeReturned} (acknowledged after the power went) may be returned or
     * not. For readers that are not a {@link Callable} of this JVM: a program run after a cut that writes what it read.
     *
     * @param acknowledged  the records acknowledged before the cut, in order
     * @param mayBeReturned records that count neither way
     * @param returned      what the reader returned
     * @param damage        what was done to the disk in words ({@code bit 3 of byte 8200 of db/wal flipped}), which
     *                      opens the explanation; empty when nothing
     */
    public static ReadBack judge(List<String> acknowledged, Collection<String> mayBeReturned,
                                 Collection<String> returned, String damage) {
        return judged(List.copyOf(acknowledged), mayBeReturned, returned,
                damage == null || damage.isEmpty() ? "" : damage + ": ");
    }

    /** As {@link #judge(List, Collection, Collection, String)}, {@code damage} already "words: " or empty. */
    private static ReadBack judged(List<String> all, Collection<String> mayBeReturned, Collection<String> returned,
                                   String damage) {
        Set<String> acknowledged = new HashSet<>(all);
        Set<String> mayBe = new HashSet<>(mayBeReturned);
        Set<String> unknown = new LinkedHashSet<>();
        for (String r : returned) {
            if (!acknowledged.contains(r) && !mayBe.contains(r)) {
                unknown.add(r);
            }
        }
        Set<String> kept = new HashSet<>(returned);
        List<String> lost = all.stream().filter(r -> !kept.contains(r)).toList();
        String counts = "the reader returned " + returned.size() + " records, " + all.size() + " were acknowledged";
        if (!unknown.isEmpty()) {
            return new ReadBack(ReadBack.Outcome.SILENT_CORRUPTION, List.copyOf(returned), null, damage + counts + "; "
                    + unknown.size() + " returned never acknowledged (" + shown(List.copyOf(unknown)) + ")"
                    + (lost.isEmpty() ? "" : ", " + lost.size() + " acknowledged missing (" + shown(lost) + ")")
                    + "; no error");
        }
        if (!lost.isEmpty()) {
            return new ReadBack(ReadBack.Outcome.SILENT_LOSS, List.copyOf(returned), null, damage + counts + "; "
                    + lost.size() + " acknowledged missing (" + shown(lost) + "); no error");
        }
        return new ReadBack(ReadBack.Outcome.INTACT, List.copyOf(returned), null, damage + counts + ", all of them intact");
    }

    /** The first three of {@code records}, quoted, and how many more. */
    private static String shown(List<String> records) {
        int n = Math.min(3, records.size());
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ", ").append(quoted(records.get(i)));
        }
        return b + (n < records.size() ? " and " + (records.size() - n) + " more" : "");
    }

    /**
     * {@code record} in quotes, at most 60 characters of it, its control characters escaped ({@link Escape}):
     * damaged records hold anything.
     */
    static String quoted(String record) {
        int shown = Math.min(60, record.length());
        String q = "\"" + Escape.of(record.substring(0, shown)) + "\"";
        return shown < record.length() ? q + " (" + record.length() + " characters)" : q;
    }
}

package io.flushcheck.powercut;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
 * records are kept apart ({@link #afterPowerCut()}); what a program that acknowledges after a failed sync loses is
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
    private final List<String> afterPowerCut = new ArrayList<>();
    private Throwable thrownAfterPowerCut;

    private AcknowledgedRecords(SimulatedDisk disk) {
        this.disk = disk;
    }

    /** Records acknowledged by a program on {@code disk}, none yet. */
    public static AcknowledgedRecords on(SimulatedDisk disk) {
        AcknowledgedRecords records = new AcknowledgedRecords(disk);
        disk.noteRecords(records);
        return records;
    }

    /** The records of a saved recording ({@link CrashStates#load}): fixed, no disk counts for them any more. */
    static AcknowledgedRecords loaded(List<Ack> acks) {
        AcknowledgedRecords records = new AcknowledgedRecords(null);
        records.acks.addAll(acks);
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
        if (disk == null) {
            throw new IllegalStateException("the acknowledgements of a saved recording are fixed: nothing runs to add "
                    + "to them");
        }
        long[] counts = disk.failuresAndFlushes();
        if (counts == null) {
            afterPowerCut.add(record);
        } else {
            acks.add(new Ack(record, counts[0], counts[1]));
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
}

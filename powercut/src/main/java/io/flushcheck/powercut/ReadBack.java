package io.flushcheck.powercut;

import java.io.UncheckedIOException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * What a program read back from damaged or cut storage, told apart by comparing it with what it had acknowledged
 * ({@link AcknowledgedRecords#readBack}): the outcome, the records it returned (empty when it failed), what it threw
 * (or null), and the outcome explained in words, with the damage done to the disk where there was any:
 * {@code bit 3 of byte 8200 of db/wal flipped: the reader returned 41 records, 59 were acknowledged, no error}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record ReadBack(Outcome outcome, List<String> returned, Throwable error, String explanation) {

    public ReadBack {
        returned = List.copyOf(returned);
    }

    /** How a read back ended. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public enum Outcome {
        /** Every acknowledged record, and nothing the program did not write: it had a good copy, or nothing was hit. */
        INTACT,
        /**
         * The reader failed with an error or refused to open: a checked exception, an {@link UncheckedIOException}, or
         * a runtime exception of the program's own; the program noticed.
         */
        DETECTED,
        /** A record the program never acknowledged among the returned ones, and no error: wrong data passed as right. */
        SILENT_CORRUPTION,
        /** Fewer records than were acknowledged, nothing unknown among them, and no error. */
        SILENT_LOSS,
        /**
         * The reader broke on what it read without naming it: a {@link NullPointerException},
         * {@link IndexOutOfBoundsException}, {@link ClassCastException}, {@link ArithmeticException},
         * {@link NegativeArraySizeException} or an {@link Error}.
         */
        CRASHED,
        /** The reader did not return within its time. */
        HUNG
    }

    /** True for the outcomes that hide damage from the program's user: silent corruption and silent loss. */
    public boolean silent() {
        return outcome == Outcome.SILENT_CORRUPTION || outcome == Outcome.SILENT_LOSS;
    }

    /** Fails with the explanation when the outcome is silent corruption or silent loss. */
    public void assertNotSilent() {
        if (silent()) {
            throw new AssertionError(explanation, error);
        }
    }

    /** Fails with the explanation unless the outcome is {@code expected}. */
    public void assertOutcome(Outcome expected) {
        if (outcome != expected) {
            throw new AssertionError("expected " + expected + ", got " + outcome + ": " + explanation, error);
        }
    }
}

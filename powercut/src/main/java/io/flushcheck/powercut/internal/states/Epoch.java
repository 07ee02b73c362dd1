package io.flushcheck.powercut.internal.states;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The writes a recorded drive carried out between two completed flushes, in order: the first
 * {@code flushesBefore} flushes (counted from the drive's creation) had completed when they were issued.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record Epoch(long flushesBefore, List<RecordedWrite> writes) {

    public Epoch {
        writes = List.copyOf(writes);
    }
}

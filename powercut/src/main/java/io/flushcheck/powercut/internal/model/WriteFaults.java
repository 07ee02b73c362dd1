package io.flushcheck.powercut.internal.model;

import org.apiguardian.api.API;

/**
 * Writes that fail with the power on ({@link PowerLossModel#failWrites}), for either model: a write that
 * touches a planned range of a unit (the block model's drive, unit 0; a file of the file model, by its node)
 * fails with the range's errno and changes nothing; a range planned once is gone after its first failure. Not
 * thread-safe: its model calls it under its own lock.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WriteFaults extends RangeFaults {
}

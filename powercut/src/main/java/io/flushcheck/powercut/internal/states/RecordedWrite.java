package io.flushcheck.powercut.internal.states;

import org.apiguardian.api.API;

/**
 * One write a recorded drive carried out: {@code length} bytes at {@code offset} of the drive, kept at
 * {@code at} in the recording's file ({@link Recording}), and a hash of each of its 512-byte units, by
 * which states that leave the same bytes in the same places are told apart from those that do not.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record RecordedWrite(long offset, int length, long at, long[] unitHashes) {

    /** The unit the hashes are taken over: a loop device writes whole 512-byte blocks. */
    public static final int UNIT = 512;

    public RecordedWrite {
        if (offset % UNIT != 0 || length % UNIT != 0 || length <= 0) {
            throw new IllegalArgumentException("a drive's write is whole 512-byte units, not " + length + " bytes at "
                    + offset);
        }
        if (unitHashes.length != length / UNIT) {
            throw new IllegalArgumentException(length / UNIT + " unit hashes expected, not " + unitHashes.length);
        }
    }

    public long end() {
        return offset + length;
    }
}

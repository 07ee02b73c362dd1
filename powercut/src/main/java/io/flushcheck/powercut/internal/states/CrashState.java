package io.flushcheck.powercut.internal.states;

import org.apiguardian.api.API;

/**
 * One state a drive may be left in by a power cut during epoch {@code epoch} (an index into the
 * recording's epochs): every write of the epochs before it survived, and of its own writes
 * <ul>
 *   <li>{@link Kind#PREFIX}: the first {@code write} (a drive that writes in order);</li>
 *   <li>{@link Kind#DROP}: all but write {@code write} (the drive wrote later ones first);</li>
 *   <li>{@link Kind#TORN}: the first {@code write}, and of write {@code write} its first {@code keptBytes}
 *       bytes, ending in the middle of a sector (a drive whose atomic unit is under 4 KiB).</li>
 * </ul>
 * {@code lost} counts the epoch's writes that did not survive whole: the smaller, the closer the state is
 * to what the workload wrote.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record CrashState(int epoch, Kind kind, int write, long keptBytes, int lost) {

    /** How the state chooses the epoch's writes. */
    public enum Kind { PREFIX, DROP, TORN }

    /** Whether write {@code i} of the epoch survived whole. */
    public boolean keeps(int i) {
        return switch (kind) {
            case PREFIX, TORN -> i < write;
            case DROP -> i != write;
        };
    }
}

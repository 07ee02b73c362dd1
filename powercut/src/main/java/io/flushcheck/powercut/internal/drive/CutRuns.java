package io.flushcheck.powercut.internal.drive;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** What a drive's cut discarded, listed by runs of sectors ({@link SectorStore#discarded()}). */
final class CutRuns {

    private CutRuns() {
    }

    /**
     * A run of sectors an entry, first first: {@code discarded OFFSET LENGTH} for the sectors of {@code discarded}
     * (put back whole), {@code torn OFFSET LENGTH} for those of {@code torn} (kept only in part); in bytes of the drive.
     * Past {@code most} entries, one {@code unlisted BYTES} gives the bytes left unlisted.
     */
    static List<String> list(BitSet discarded, BitSet torn, int most) {
        List<String> ranges = new ArrayList<>();
        long unlisted = 0;
        BitSet all = (BitSet) discarded.clone();
        all.or(torn);
        for (int s = all.nextSetBit(0); s >= 0; ) {
            boolean isTorn = torn.get(s);
            int end = s + 1;
            while (end < all.length() && all.get(end) && torn.get(end) == isTorn) {
                end++;
            }
            long bytes = (long) (end - s) * SectorStore.SECTOR;
            if (ranges.size() < most) {
                ranges.add((isTorn ? "torn " : "discarded ") + (long) s * SectorStore.SECTOR + " " + bytes);
            } else {
                unlisted += bytes;
            }
            s = all.nextSetBit(end);
        }
        if (unlisted > 0) {
            ranges.add("unlisted " + unlisted);
        }
        return ranges;
    }
}

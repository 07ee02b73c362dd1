package io.flushcheck.powercut.internal.states;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.internal.drive.SectorStore;
import io.flushcheck.powercut.internal.states.CrashState.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The keys of an epoch's states, brought from state to state, against keys made from scratch. */
class EpochDigestsTests {

    private static final int UNITS_PER_SECTOR = SectorStore.SECTOR / RecordedWrite.UNIT;

    /** Writes of 1 to 4 sectors over 12 sectors, so that many overlap, each unit's hash one of few values. */
    private static List<RecordedWrite> writes(Random random, int n) {
        List<RecordedWrite> writes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int sectors = 1 + random.nextInt(4);
            long sector = random.nextInt(12);
            long[] hashes = new long[sectors * UNITS_PER_SECTOR];
            for (int u = 0; u < hashes.length; u++) {
                hashes[u] = random.nextInt(3); // the same bytes written again, often
            }
            writes.add(new RecordedWrite(sector * SectorStore.SECTOR, sectors * SectorStore.SECTOR, -1, hashes));
        }
        return writes;
    }

    private static List<CrashState> everyState(List<RecordedWrite> writes) {
        List<CrashState> states = new ArrayList<>();
        for (int i = 0; i <= writes.size(); i++) {
            states.add(new CrashState(0, Kind.PREFIX, i, 0, writes.size() - i));
        }
        for (int i = 0; i < writes.size(); i++) {
            states.add(new CrashState(0, Kind.DROP, i, 0, 1));
            for (long kept = RecordedWrite.UNIT; kept < writes.get(i).length(); kept += RecordedWrite.UNIT) {
                states.add(new CrashState(0, Kind.TORN, i, kept, writes.size() - i));
            }
        }
        return states;
    }

    @Test
    void eachStatesKeyIsTheKeyOfTheUnitsItLeaves() {
        Random random = new Random(31);
        for (int round = 0; round < 200; round++) {
            List<RecordedWrite> writes = writes(random, 1 + random.nextInt(10));
            EpochDigests digests = new EpochDigests(0, writes);
            for (CrashState s : everyState(writes)) {
                assertThat(digests.of(s)).as("%s of %d writes", s, writes.size())
                        .isEqualTo(EpochDigests.fromScratch(0, s, writes));
            }
        }
    }

    @Test
    void statesThatLeaveDifferentUnitsHaveDifferentKeys() {
        Random random = new Random(7);
        List<RecordedWrite> writes = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // each write its own sector and its own bytes: every state differs
            long[] hashes = new long[UNITS_PER_SECTOR];
            for (int u = 0; u < hashes.length; u++) {
                hashes[u] = random.nextLong();
            }
            writes.add(new RecordedWrite((long) i * SectorStore.SECTOR, SectorStore.SECTOR, -1, hashes));
        }
        EpochDigests digests = new EpochDigests(0, writes);
        Set<EpochDigests.Key> keys = new HashSet<>();
        List<CrashState> states = everyState(writes);
        for (CrashState s : states) {
            keys.add(digests.of(s));
        }
        // DROP of the last write is PREFIX of all but it: one image under two names.
        assertThat(keys).hasSize(states.size() - 1);
    }

    @Test
    void anEpochOfManyLargeWritesIsEnumeratedInALinearPass() {
        List<RecordedWrite> writes = new ArrayList<>();
        for (int i = 0; i < 2000; i++) { // 2000 writes of 128 KiB: 512,000 units
            long[] hashes = new long[32 * UNITS_PER_SECTOR];
            for (int u = 0; u < hashes.length; u++) {
                hashes[u] = i * 1000L + u;
            }
            writes.add(new RecordedWrite((long) i * 32 * SectorStore.SECTOR, 32 * SectorStore.SECTOR, -1, hashes));
        }
        long started = System.nanoTime();
        CrashStateSpace.Enumerated e = CrashStateSpace.enumerate(List.of(new Epoch(0, writes)), SectorStore.SECTOR, 100);
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(e.distinct()).isEqualTo(2001 + 1999);
        assertThat(seconds).as("seconds to enumerate 4000 states of 2000 writes").isLessThan(10);
    }
}

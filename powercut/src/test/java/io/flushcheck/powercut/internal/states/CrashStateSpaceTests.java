package io.flushcheck.powercut.internal.states;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.powercut.internal.drive.SectorStore;
import io.flushcheck.powercut.internal.states.CrashState.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The crash states of recorded epochs: which are enumerated, which are one image, and what a bound leaves out. */
class CrashStateSpaceTests {

    private static final int SECTOR = SectorStore.SECTOR;

    /** A write of whole sectors at sector {@code sector}, each unit's hash {@code content} and its unit number. */
    private static RecordedWrite write(long sector, int sectors, long content) {
        long[] hashes = new long[sectors * SECTOR / RecordedWrite.UNIT];
        for (int u = 0; u < hashes.length; u++) {
            hashes[u] = content * 1000 + u;
        }
        return new RecordedWrite(sector * SECTOR, sectors * SECTOR, -1, hashes);
    }

    private static Epoch epoch(long flushesBefore, RecordedWrite... writes) {
        return new Epoch(flushesBefore, List.of(writes));
    }

    private static List<String> named(List<CrashState> states) {
        List<String> out = new ArrayList<>();
        for (CrashState s : states) {
            out.add(s.epoch() + " " + s.kind() + " " + s.write() + (s.kind() == Kind.TORN ? "+" + s.keptBytes() : ""));
        }
        return out;
    }

    @Test
    void everyPrefixAndEachWriteDroppedWithTheLaterOnesKeptFewestLostFirst() {
        List<Epoch> epochs = List.of(epoch(3, write(10, 1, 1), write(11, 1, 2), write(12, 1, 3)),
                epoch(4, write(20, 1, 4), write(21, 1, 5)));
        CrashStateSpace.Enumerated e = CrashStateSpace.enumerate(epochs, SECTOR, 100);
        assertThat(named(e.states())).containsExactly(
                "1 PREFIX 2", // the end of the recording
                "0 PREFIX 2", "0 DROP 0", "0 DROP 1", "1 PREFIX 1", "1 DROP 0",
                "0 PREFIX 1", "1 PREFIX 0",
                "0 PREFIX 0");
        assertThat(e.duplicates()).isZero();
        assertThat(e.leftOut()).isZero();
        assertThat(e.states()).extracting(CrashState::lost).containsExactly(0, 1, 1, 1, 1, 1, 2, 2, 3);
    }

    @Test
    void aWholeEpochIsTheNextEpochsFirstStateWhichKeepsMore() {
        List<Epoch> epochs = List.of(epoch(0, write(1, 1, 1)), epoch(1, write(2, 1, 2)));
        assertThat(named(CrashStateSpace.enumerate(epochs, SECTOR, 100).states()))
                .containsExactly("1 PREFIX 1", "0 PREFIX 0", "1 PREFIX 0");
    }

    @Test
    void statesThatLeaveTheSameBytesInTheSamePlacesAreCheckedOnce() {
        // The second write is overwritten by the third: dropping it leaves what keeping it does.
        List<Epoch> epochs = List.of(epoch(0, write(5, 1, 1), write(6, 1, 2), write(6, 1, 3)));
        CrashStateSpace.Enumerated e = CrashStateSpace.enumerate(epochs, SECTOR, 100);
        assertThat(named(e.states())).containsExactly("0 PREFIX 3", "0 PREFIX 2", "0 DROP 0", "0 PREFIX 1", "0 PREFIX 0");
        assertThat(e.duplicates()).isEqualTo(1);
    }

    @Test
    void theSameContentWrittenTwiceInARowIsOneState() {
        List<Epoch> epochs = List.of(epoch(0, write(5, 1, 7), write(5, 1, 7)));
        CrashStateSpace.Enumerated e = CrashStateSpace.enumerate(epochs, SECTOR, 100);
        // Prefix 1, prefix 2 and the first one dropped all leave sector 5 with content 7.
        assertThat(named(e.states())).containsExactly("0 PREFIX 2", "0 PREFIX 0");
        assertThat(e.duplicates()).isEqualTo(2);
    }

    @Test
    void theSameWritesInDifferentEpochsAreDifferentStates() {
        List<Epoch> epochs = List.of(epoch(0, write(5, 1, 7)), epoch(1, write(5, 1, 7)), epoch(2));
        CrashStateSpace.Enumerated e = CrashStateSpace.enumerate(epochs, SECTOR, 100);
        assertThat(named(e.states())).containsExactly("2 PREFIX 0", "0 PREFIX 0", "1 PREFIX 0");
        assertThat(e.duplicates()).isZero();
    }

    @Test
    void underAFourKibUnitEachWrittenSectorIsTornInHalf() {
        List<Epoch> epochs = List.of(epoch(0, write(8, 2, 1), write(20, 1, 2)));
        CrashStateSpace.Enumerated e = CrashStateSpace.enumerate(epochs, 512, 100);
        assertThat(named(e.states())).containsExactly(
                "0 PREFIX 2", "0 PREFIX 1", "0 DROP 0", "0 TORN 1+2048",
                "0 PREFIX 0", "0 TORN 0+2048", "0 TORN 0+6144");
        assertThat(named(CrashStateSpace.enumerate(epochs, SECTOR, 100).states())).noneMatch(s -> s.contains("TORN"));
    }

    @Test
    void theBoundKeepsTheStatesThatLoseFewestAndCountsTheRest() {
        RecordedWrite[] writes = new RecordedWrite[10];
        for (int i = 0; i < writes.length; i++) {
            writes[i] = write(100 + i, 1, i + 1);
        }
        List<Epoch> epochs = List.of(epoch(0, writes));
        CrashStateSpace.Enumerated all = CrashStateSpace.enumerate(epochs, SECTOR, 1000);
        assertThat(all.distinct()).isEqualTo(11 + 9);
        CrashStateSpace.Enumerated bounded = CrashStateSpace.enumerate(epochs, SECTOR, 5);
        assertThat(bounded.states()).hasSize(5);
        assertThat(bounded.leftOut()).isEqualTo(15);
        assertThat(bounded.states()).isEqualTo(all.states().subList(0, 5));
        assertThat(bounded.states()).extracting(CrashState::lost).containsOnly(0, 1);
        assertThat(CrashStateSpace.enumerate(epochs, SECTOR, 0).leftOut()).isEqualTo(20);
    }

    @Test
    void aNegativeBoundOrAnOddUnitIsRefused() {
        List<Epoch> epochs = List.of(epoch(0, write(1, 1, 1)));
        assertThatThrownBy(() -> CrashStateSpace.enumerate(epochs, SECTOR, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CrashStateSpace.enumerate(epochs, 1000, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecordedWrite(100, 512, 0, new long[1])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void drawnStatesComeAfterTheEnumeratedOnesEachANewImageOfAnEpochOfThreeWritesOrMore() {
        List<Epoch> epochs = List.of(epoch(0, write(1, 1, 1), write(2, 1, 2)),
                epoch(1, write(10, 1, 3), write(11, 1, 4), write(12, 1, 5), write(13, 1, 6)),
                epoch(2, write(20, 1, 7)));
        CrashStateSpace.Enumerated enumerated = CrashStateSpace.enumerate(epochs, SECTOR, 1000);
        CrashStateSpace.Enumerated drawn = CrashStateSpace.enumerate(epochs, SECTOR, 1000,
                new CrashStateSpace.Draws(5, 42));

        assertThat(drawn.states().subList(0, enumerated.states().size())).isEqualTo(enumerated.states());
        List<CrashState> draws = drawn.states().subList(enumerated.states().size(), drawn.states().size());
        assertThat(draws).hasSize(5).allSatisfy(s -> {
            assertThat(s.kind()).isEqualTo(Kind.DRAWN);
            assertThat(s.epoch()).as("the only epoch of 3 writes or more").isEqualTo(1);
            assertThat(s.drawn().cardinality()).as("a whole epoch is the next one's start").isLessThan(4);
            assertThat(s.lost()).isEqualTo(4 - s.drawn().cardinality());
        });
        assertThat(draws).extracting(CrashState::write).containsExactly(1, 2, 3, 4, 5);
        EpochDigests digests = new EpochDigests(1, epochs.get(1).writes());
        java.util.Set<EpochDigests.Key> keys = new java.util.HashSet<>();
        for (CrashState s : drawn.states()) {
            if (s.epoch() == 1) {
                assertThat(keys.add(digests.of(s))).as("%s is a new image", s).isTrue();
            }
        }
        assertThat(CrashStateSpace.enumerate(epochs, SECTOR, 1000, new CrashStateSpace.Draws(5, 42)).states())
                .as("the same seed, the same draws").isEqualTo(drawn.states());
        assertThat(CrashStateSpace.enumerate(epochs, SECTOR, 1000, new CrashStateSpace.Draws(5, 43)).states())
                .isNotEqualTo(drawn.states());
    }

    @Test
    void drawsStopWhereNoNewStateIsLeftAndTheBoundCountsThemAsLeftOut() {
        // Four writes: 16 subsets, 15 without the whole epoch (the last epoch's whole is its end, enumerated).
        List<Epoch> epochs = List.of(epoch(0, write(1, 1, 1), write(2, 1, 2), write(3, 1, 3), write(4, 1, 4)));
        CrashStateSpace.Enumerated enumerated = CrashStateSpace.enumerate(epochs, SECTOR, 1000);
        CrashStateSpace.Enumerated all = CrashStateSpace.enumerate(epochs, SECTOR, 1000,
                new CrashStateSpace.Draws(100, 1));
        assertThat(all.states()).hasSize(16);
        assertThat(all.states().size() - enumerated.states().size()).isEqualTo(16 - 8);
        CrashStateSpace.Enumerated bounded = CrashStateSpace.enumerate(epochs, SECTOR, 10,
                new CrashStateSpace.Draws(100, 1));
        assertThat(bounded.states()).hasSize(10);
        assertThat(bounded.leftOut()).isEqualTo(6);
        assertThat(CrashStateSpace.enumerate(epochs, SECTOR, 1000, CrashStateSpace.Draws.NONE).states())
                .isEqualTo(enumerated.states());
        assertThatThrownBy(() -> new CrashStateSpace.Draws(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aDrawnStatesKeyIsTheOneItsWritesMakeFromScratch() {
        List<RecordedWrite> writes = List.of(write(1, 1, 1), write(1, 1, 2), write(2, 1, 3), write(1, 1, 4));
        EpochDigests digests = new EpochDigests(0, writes);
        java.util.BitSet kept = new java.util.BitSet();
        kept.set(1);
        kept.set(2);
        CrashState s = new CrashState(0, Kind.DRAWN, 1, 0, 2, kept);
        assertThat(digests.of(s)).isEqualTo(EpochDigests.fromScratch(0, s, writes));
        // Writes 2 and 3 kept (from 1): the same image as the prefix of three, whose first write write 2 covers.
        assertThat(digests.of(s)).isEqualTo(digests.of(new CrashState(0, Kind.PREFIX, 3, 0, 1)));
        assertThat(s.keeps(0)).isFalse();
        assertThat(s.keeps(1)).isTrue();
        assertThatThrownBy(() -> new CrashState(0, Kind.DRAWN, 1, 0, 2, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CrashState(0, Kind.PREFIX, 1, 0, 2, kept)).isInstanceOf(IllegalArgumentException.class);
    }
}

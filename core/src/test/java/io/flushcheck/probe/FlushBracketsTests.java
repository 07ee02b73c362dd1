package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stat line's flush field read without a parser's allocations, and the chance bound the rule rests on. */
class FlushBracketsTests {

    private static long field(String line, int index) {
        byte[] b = line.getBytes(StandardCharsets.US_ASCII);
        return FlushBrackets.field(b, b.length, index);
    }

    @Test
    void theFlushFieldIsTheSixteenth() {
        String line = "    1024        0    65536      100  2000000   300000 80000000   50000        0   40000   90000"
                + "      12        0     2048        7    7047     3500\n";
        assertThat(field(line, 15)).isEqualTo(7047);
        assertThat(field(line, 0)).isEqualTo(1024);
        assertThat(field("1 2 3\n", 15)).as("an old kernel's line has no flush field").isEqualTo(-1);
    }

    @Test
    void theUpperBoundWithNoSuccessesIsTheClosedForm() {
        // P(X = 0) = (1 - p)^n = alpha  =>  p = 1 - alpha^(1/n)
        assertThat(BinomialBound.upper(0, 100, 0.001)).isCloseTo(1 - Math.pow(0.001, 1.0 / 100), within(1e-9));
    }

    @Test
    void theUpperBoundLiesAboveTheObservedShareAndItsCdfIsAlpha() {
        double p = BinomialBound.upper(800, 900, 0.001);
        assertThat(p).isGreaterThan(800.0 / 900).isLessThan(0.93);
        assertThat(BinomialBound.cdf(800, 900, p)).isCloseTo(0.001, within(1e-6));
    }

    @Test
    void allSyncsMeetingAFlushByChanceIsBoundedByThePowerOfTheBound() {
        FlushBrackets.Tally t = FlushBrackets.Tally.of(64, new int[] {64, 0}, 16, new int[] {0, 0});
        assertThat(t.chanceAllMet()).isLessThan(1e-20).isGreaterThan(1e-40);
        assertThat(FlushBrackets.Tally.of(64, new int[] {64, 0}, 0, new int[] {0, 0}).chanceAllMet()).as("no idle brackets: no bound").isEqualTo(1);
        assertThat(FlushBrackets.Tally.of(64, new int[] {64, 0}, 50, new int[] {50, 0}).chanceAllMet()).isEqualTo(1);
    }

    @Test
    void theBinomialTailSumsFromItsStart() {
        assertThat(BinomialBound.tail(0, 10, 0.3)).isEqualTo(1);
        assertThat(BinomialBound.tail(11, 10, 0.3)).isZero();
        assertThat(BinomialBound.tail(10, 10, 0.5)).isCloseTo(Math.pow(0.5, 10), within(1e-15));
        assertThat(BinomialBound.tail(1, 10, 0.5)).isCloseTo(1 - Math.pow(0.5, 10), within(1e-12));
        assertThat(BinomialBound.tail(5, 10, 0.5) + BinomialBound.cdf(4, 10, 0.5)).isCloseTo(1, within(1e-12));
        // far in the tail, where 1 - cdf would have lost every digit
        assertThat(BinomialBound.tail(950, 1000, 0.5)).isGreaterThan(0).isLessThan(1e-200);
    }

    @Test
    void twoFlushesMetByChanceAreBoundedByTheTailAtTheRaisedBound() {
        FlushBrackets.Tally t = FlushBrackets.Tally.of(1000, new int[] {1000, 950}, 900, new int[] {899, 450});
        assertThat(t.chanceMeeting(2, 0.25)).isLessThan(1e-20);
        assertThat(FlushBrackets.Tally.of(1000, new int[] {1000, 620}, 900, new int[] {899, 450}).chanceMeeting(2, 0.25)).isGreaterThan(0.01);
        assertThat(FlushBrackets.Tally.of(1000, new int[] {1000, 620}, 900, new int[] {899, 450}).chanceMeeting(2, 0)).isLessThan(1e-3);
        assertThat(FlushBrackets.Tally.of(100, new int[] {100, 0}, 90, new int[] {90, 0}).chanceMeeting(2, 0.25)).as("no twos").isEqualTo(1);
    }

    @Test
    void aBracketCountsTowardsEveryDepthItReached() {
        int[] meeting = new int[FlushBrackets.Tally.DEPTH];
        FlushBrackets.Tally.count(0, meeting);
        FlushBrackets.Tally.count(2, meeting);
        FlushBrackets.Tally.count(9, meeting);
        assertThat(meeting).containsExactly(2, 2, 1, 1);
        FlushBrackets.Tally t = FlushBrackets.Tally.of(3, meeting, 1, new int[] {1});
        assertThat(t.plus(t).syncsMeeting()).containsExactly(4, 4, 2, 2);
        assertThat(t.plus(t).controlsMeeting()).containsExactly(2, 0, 0, 0);
        assertThat(t.syncsWithoutFlush()).isEqualTo(1);
    }

    @Test
    void aFlushGotDownWhereEveryLevelAboveTheBottomAndTheBottomTogetherCompletedIt() throws Exception {
        Path dir = Files.createTempDirectory("brackets");
        try {
            Path loop = dir.resolve("loop");
            Path a = dir.resolve("a");
            Path b = dir.resolve("b");
            List<Path> files = List.of(loop, a, b);
            for (Path p : files) {
                Files.writeString(p, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
            }
            try (FlushBrackets fb = FlushBrackets.open(files, new boolean[] {false, true, true})) {
                long[] before = fb.newReading();
                long[] after = fb.newReading();
                assertThat(fb.read(before)).isTrue();
                Files.writeString(loop, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0\n");
                Files.writeString(a, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0\n");
                Files.writeString(b, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0\n");
                assertThat(fb.read(after)).isTrue();
                assertThat(fb.flushesDown(before, after)).as("the bottom's two disks together").isEqualTo(2);
                Files.writeString(loop, "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n");
                assertThat(fb.read(after)).isTrue();
                assertThat(fb.flushesDown(before, after)).as("a level above completed none").isZero();
            }
        } finally {
            for (String n : new String[] {"loop", "a", "b"}) {
                Files.deleteIfExists(dir.resolve(n));
            }
            Files.delete(dir);
        }
    }
}

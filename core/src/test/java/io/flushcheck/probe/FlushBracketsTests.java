package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
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
        FlushBrackets.Tally t = new FlushBrackets.Tally(64, 64, 16, 0);
        assertThat(t.chanceAllMet()).isLessThan(1e-20).isGreaterThan(1e-40);
        assertThat(new FlushBrackets.Tally(64, 64, 0, 0).chanceAllMet()).as("no idle brackets: no bound").isEqualTo(1);
        assertThat(new FlushBrackets.Tally(64, 64, 50, 50).chanceAllMet()).isEqualTo(1);
    }
}

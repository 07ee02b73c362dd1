package io.flushcheck.powercut.internal.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A row's figures from its cuts: sums, the cuts that lost, the most one cut lost, the whole and broken survivors. */
class CutTallyTests {

    @Test
    void cutsAreSummedAndTheWorstIsKept() {
        CutTally t = new CutTally();
        t.add(100, 100, true);
        t.add(120, 111, true);
        t.add(80, 76, false);
        assertThat(t.cuts()).isEqualTo(3);
        assertThat(t.acknowledged()).isEqualTo(300);
        assertThat(t.lost()).isEqualTo(13);
        assertThat(t.cutsThatLost()).isEqualTo(2);
        assertThat(t.maxLostInOneCut()).isEqualTo(9);
        assertThat(t.whole()).isEqualTo(2);
        assertThat(t.broken()).isEqualTo(1);
    }

    @Test
    void noCutLosesNothing() {
        CutTally t = new CutTally();
        assertThat(t.cuts()).isZero();
        assertThat(t.lost()).isZero();
        assertThat(t.maxLostInOneCut()).isZero();
        assertThat(t.broken()).isZero();
    }
}

package io.flushcheck.powercut.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReadFaultsTests {

    @Test
    void aPersistentRangeFailsEveryReadThatTouchesItUntilRewritten() {
        ReadFaults f = new ReadFaults();
        f.fail(7, 100, 10, true, 5);
        assertThat(f.failsNow(7, 0, 100)).as("just before").isZero();
        assertThat(f.failsNow(8, 100, 10)).as("another unit").isZero();
        assertThat(f.failsNow(7, 109, 1)).isEqualTo(5);
        assertThat(f.failsNow(7, 0, 4096)).isEqualTo(5);
        f.rewritten(7, 100, 105);
        assertThat(f.failsNow(7, 100, 5)).as("the rewritten part reads").isZero();
        assertThat(f.failsNow(7, 105, 1)).as("the rest stays bad").isEqualTo(5);
        f.rewritten(7, 0, 4096);
        assertThat(f.failsNow(7, 0, 4096)).isZero();
        assertThat(f.failed()).isEqualTo(3);
    }

    @Test
    void aRangeFailedOnceFailsOneReadAndAFaultToTheEndDoesNotOverflow() {
        ReadFaults f = new ReadFaults();
        f.fail(1, 4096, Long.MAX_VALUE, false, 61);
        assertThat(f.failsNow(1, Long.MAX_VALUE - 10, 5)).isEqualTo(61);
        assertThat(f.failsNow(1, 4096, 1)).isZero();
        assertThat(f.failsNow(1, 4096, 0)).as("a read of nothing").isZero();
        assertThat(f.failed()).isEqualTo(1);
    }
}

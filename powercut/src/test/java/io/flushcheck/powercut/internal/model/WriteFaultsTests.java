package io.flushcheck.powercut.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WriteFaultsTests {

    @Test
    void aRangeToTheEndThatStartsPastByteZeroFailsAWriteFarIntoTheFile() {
        WriteFaults faults = new WriteFaults();
        faults.fail(7, 4096, Long.MAX_VALUE, true, 5);
        assertThat(faults.failsNow(7, 1L << 40, 10)).isEqualTo(5);
        assertThat(faults.failsNow(7, 0, 4096)).isZero();
        assertThat(faults.failed()).isEqualTo(1);
    }
}

package io.flushcheck.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NumbersTests {

    @Test
    void microsKeepThreeSignificantDigits() {
        assertThat(Numbers.micros(2.4712)).isEqualTo("2.47");
        assertThat(Numbers.micros(44.49)).isEqualTo("44.5");
        assertThat(Numbers.micros(312.4)).isEqualTo("312");
        assertThat(Numbers.micros(Double.NaN)).isEqualTo("-");
    }

    @Test
    void ratesPerEventRatiosCountsAndSizes() {
        assertThat(Numbers.rate(12345.6)).isEqualTo("12,346");
        assertThat(Numbers.perEvent(1)).isEqualTo("1.00");
        assertThat(Numbers.perEvent(Double.NaN)).isEqualTo("-");
        assertThat(Numbers.ratio(0.5)).isEqualTo("0.50x");
        assertThat(Numbers.ratio(0.002)).isEqualTo("0.00200x");
        assertThat(Numbers.ratio(12)).isEqualTo("12.0x");
        assertThat(Numbers.count(-1)).isEqualTo("-");
        assertThat(Numbers.count(7)).isEqualTo("7");
        assertThat(Numbers.size(4096)).isEqualTo("4 KiB");
        assertThat(Numbers.size(1 << 20)).isEqualTo("1 MiB");
        assertThat(Numbers.size(1000)).isEqualTo("1000 bytes");
    }
}

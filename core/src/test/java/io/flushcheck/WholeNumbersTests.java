package io.flushcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WholeNumbersTests {

    @Test
    void aWholeNumberWithinTheRangeIsItsValueBoundsIncluded() {
        assertThat(WholeNumbers.parse("k = '8'", "8", 8, 100)).isEqualTo(8);
        assertThat(WholeNumbers.parse("k = '100'", "100", 8, 100)).isEqualTo(100);
        assertThat(WholeNumbers.parse("k = '-3'", "-3", -5, 0)).isEqualTo(-3);
    }

    @Test
    void outsideTheRangeOrNotAWholeNumberIsRefusedNamingTheSubjectAndTheRange() {
        assertThatThrownBy(() -> WholeNumbers.parse("k = '7'", "7", 8, 100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("k = '7' is out of range: use 8 to 100");
        assertThatThrownBy(() -> WholeNumbers.parse("k = '101'", "101", 8, 100))
                .hasMessage("k = '101' is out of range: use 8 to 100");
        for (String bad : new String[] {"", "1.5", "ten", "99999999999"}) {
            assertThatThrownBy(() -> WholeNumbers.parse("k", bad, 8, 100)).as(bad)
                    .hasMessage("k is not a whole number: use 8 to 100");
        }
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a {@link DataFault} changes of a file of a given size: the range cut to it, and for bit rot a seeded byte and bit. */
class DataFaultPickTests {

    private static final Path F = Path.of("f");

    @Test
    void bitRotPicksOneByteOfTheRangeWithinTheFileAndOneBitTheSameForTheSameSeed() {
        Set<Long> bytes = new HashSet<>();
        Set<Integer> bits = new HashSet<>();
        for (long seed = 0; seed < 200; seed++) {
            DataFault.Pick p = DataFault.bitRot(F).range(100, 1000).seed(seed).pick(600, "f");
            assertThat(p.offset()).isBetween(100L, 599L);
            assertThat(p.length()).isEqualTo(1);
            assertThat(p.bit()).isBetween(0, 7);
            assertThat(DataFault.bitRot(F).range(100, 1000).seed(seed).pick(600, "f")).isEqualTo(p);
            bytes.add(p.offset());
            bits.add(p.bit());
        }
        assertThat(bits).as("every bit is picked by some seed").hasSize(8);
        assertThat(bytes.size()).as("seeds pick bytes across the range").isGreaterThan(100);
    }

    @Test
    void zeroedTakesTheRangeCutToTheFileAndARangePastItsEndIsRefused() {
        assertThat(DataFault.zeroed(F).pick(5000, "f")).isEqualTo(new DataFault.Pick(0, 5000, -1));
        assertThat(DataFault.zeroed(F).range(4096, 4096).pick(5000, "f")).isEqualTo(new DataFault.Pick(4096, 904, -1));
        DataFault.Pick last = DataFault.bitRot(F).range(10, Long.MAX_VALUE).pick(11, "f");
        assertThat(last.offset()).as("the one byte of the range the file has").isEqualTo(10);
        assertThat(last.length()).isEqualTo(1);
        assertThatThrownBy(() -> DataFault.zeroed(F).range(5000, 10).pick(5000, "f"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("f has 5000 bytes: none of them in 5000+10 to corrupt");
        assertThatThrownBy(() -> DataFault.bitRot(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DataFault.zeroedOnDrive(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

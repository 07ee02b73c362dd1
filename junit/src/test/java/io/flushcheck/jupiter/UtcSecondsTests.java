package io.flushcheck.jupiter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UtcSecondsTests {

    @Test
    void writesWhatInstantWritesToTheSecond() {
        long[] edges = {0, -1, 999, 1000, 951_782_400_000L /* 2000-02-29 */, 4_107_542_399_999L /* 2100-02-28T23:59:59 */,
                253_402_300_799_000L /* 9999-12-31T23:59:59 */, -62_167_219_200_000L /* 0000-01-01 */, System.currentTimeMillis()};
        for (long millis : edges) {
            assertThat(UtcSeconds.of(millis)).as("%d", millis).isEqualTo(expected(millis));
        }
        Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            long millis = random.nextLong(-62_167_219_200_000L, 253_402_300_800_000L);
            assertThat(UtcSeconds.of(millis)).as("%d", millis).isEqualTo(expected(millis));
        }
    }

    private static String expected(long millis) {
        return Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}

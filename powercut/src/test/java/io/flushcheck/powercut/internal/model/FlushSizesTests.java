package io.flushcheck.powercut.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A file's size read as each flush completes, and where a line ending at a byte was written: between the reading that
 * did not hold it and the first that did, counted from the flush before that one.
 */
class FlushSizesTests {

    /** Flushes 1 to 6 of a drive; lines of 2 bytes ("1\n", "2\n", ...) appended between them. */
    private static FlushSizes readings() {
        FlushSizes s = new FlushSizes();
        s.note(1, 0);  // nothing acknowledged before flush 1 completed
        s.note(2, 2);  // "1\n" written after flush 1, before flush 2 completed
        s.note(3, 2);
        s.note(4, 6);  // "2\n" and "3\n" after flush 3
        s.note(5, 6);
        s.note(6, 6);
        return s;
    }

    @Test
    void aLineCountsFromTheFlushBeforeTheFirstReadingThatHeldIt() {
        FlushSizes s = readings();
        assertThat(s.flushesWhenWritten(2)).as("\"1\\n\", first held by flush 2's reading").isEqualTo(1);
        assertThat(s.flushesWhenWritten(4)).as("\"2\\n\", first held by flush 4's reading").isEqualTo(3);
        assertThat(s.flushesWhenWritten(6)).as("\"3\\n\"").isEqualTo(3);
        assertThat(s.flushesWhenWritten(7)).as("a line after the last flush: not bounded").isEqualTo(-1);
    }

    @Test
    void aLineWrittenBeforeTheFirstFlushWatchedCountsFromTheFlushesBeforeIt() {
        FlushSizes s = new FlushSizes();
        s.note(13, 5);
        assertThat(s.flushesWhenWritten(5)).isEqualTo(12);
        assertThat(s.flushesWhenWritten(1)).isEqualTo(12);
    }

    @Test
    void aFileShortenedByItsProgramStillCountsALineFromTheFirstReadingThatHeldIt() {
        FlushSizes s = new FlushSizes();
        s.note(1, 10);
        s.note(2, 0);  // the program truncated its file
        s.note(3, 4);
        s.note(4, 20);
        assertThat(s.flushesWhenWritten(4)).isEqualTo(0);
        assertThat(s.flushesWhenWritten(10)).isEqualTo(0);
        assertThat(s.flushesWhenWritten(11)).isEqualTo(3);
    }

    @Test
    void theReadingsGoThroughTheDrivesReplyUnchangedAndOnlyChangesAreKept() {
        FlushSizes s = readings();
        assertThat(s.reply()).isEqualTo("sizes 1 0 2 2 4 6");
        FlushSizes back = FlushSizes.of(s.reply());
        for (long end = 0; end <= 8; end++) {
            assertThat(back.flushesWhenWritten(end)).as("a line ending at " + end).isEqualTo(s.flushesWhenWritten(end));
        }
        assertThat(FlushSizes.of("sizes").flushesWhenWritten(1)).isEqualTo(-1);
        assertThatThrownBy(() -> FlushSizes.of("sizes 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FlushSizes.of("sizes 2 x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FlushSizes.of("sizes 2 1 1 4")).as("flushes out of order")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FlushSizes.of("stats")).isInstanceOf(IllegalArgumentException.class);
    }
}

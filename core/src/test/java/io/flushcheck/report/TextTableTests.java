package io.flushcheck.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTableTests {

    @Test
    void columnsAreAsWideAsTheirWidestCellTextLeftFiguresRight() {
        String t = new TextTable().text("mode").figure("p50 µs").text("note")
                .row("append-fsync", "312", "slow")
                .row("dsync", "2.47", null)
                .render();
        assertThat(t).isEqualTo(""
                + "mode         p50 µs note\n"
                + "append-fsync    312 slow\n"
                + "dsync          2.47\n");
    }

    @Test
    void aRowMustFillEveryColumn() {
        assertThatThrownBy(() -> new TextTable().text("a").figure("b").row("1"))
                .hasMessage("1 cells for 2 columns");
    }

    @Test
    void anEmptyTableIsItsHeader() {
        assertThat(new TextTable().text("mode").figure("p50").render()).isEqualTo("mode p50\n");
    }
}

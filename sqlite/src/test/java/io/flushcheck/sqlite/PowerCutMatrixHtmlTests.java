package io.flushcheck.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQLite power-cut matrix's HTML table, byte for byte: a row that kept everything, one that lost commits and one
 * with a corrupt cut.
 */
class PowerCutMatrixHtmlTests {

    static final String EXPECTED = "<p class=\"note\">seed 42: each cut's commits and surviving sectors derive from it, so the s"
            + "ame seed repeats the run</p><table class=\"numbers powercut\"><thead><tr><th>journal</th><th"
            + ">synchronous</th><th>cuts</th><th>acknowledged</th><th>lost</th><th>cuts that lost</th><th>m"
            + "ost lost in one cut</th><th>corrupt</th></tr></thead><tbody><tr class=\"cell kept\"><th>WAL<"
            + "/th><th>FULL</th><td>3</td><td>300</td><td>0</td><td>0</td><td>0</td><td>0</td></tr><tr clas"
            + "s=\"cell lost\"><th>WAL</th><th>NORMAL</th><td>3</td><td>310</td><td>12</td><td>2</td><td>9<"
            + "/td><td>0</td></tr><tr class=\"cell corrupt\"><th>DELETE</th><th>OFF</th><td>3</td><td>280</"
            + "td><td>40</td><td>3</td><td>30</td><td>1</td></tr></tbody></table>";

    @Test
    void theTableIsTheSameByteForByte() {
        List<PowerCutMatrix.Row> rows = List.of(
                new PowerCutMatrix.Row(JournalMode.WAL, Synchronous.FULL, 3, 300, 0, 0, 0, 0),
                new PowerCutMatrix.Row(JournalMode.WAL, Synchronous.NORMAL, 3, 310, 12, 2, 9, 0),
                new PowerCutMatrix.Row(JournalMode.DELETE, Synchronous.OFF, 3, 280, 40, 3, 30, 1));
        assertThat(PowerCutMatrixHtml.html(rows, 42)).isEqualTo(EXPECTED);
    }
}

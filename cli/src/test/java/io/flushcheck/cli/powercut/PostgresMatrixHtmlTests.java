package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.postgres.PostgresPowerCutMatrix;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL power-cut matrix's HTML table, byte for byte: a row that kept everything, one that lost commits and
 * one whose survivor did not always recover, its settings escaped.
 */
class PostgresMatrixHtmlTests {

    static final String EXPECTED = "<p class=\"note\">seed -7: each cut's commits and surviving sectors derive from it, so the s"
            + "ame seed repeats the run</p><table class=\"numbers powercut\"><thead><tr><th>settings</th><t"
            + "h>cuts</th><th>acknowledged</th><th>lost</th><th>cuts that lost</th><th>most lost in one cut"
            + "</th><th>recovered</th></tr></thead><tbody><tr class=\"cell kept\"><th>defaults</th><td>4</t"
            + "d><td>400</td><td>0</td><td>0</td><td>0</td><td>4</td></tr><tr class=\"cell lost\"><th>synch"
            + "ronous_commit=off</th><td>4</td><td>410</td><td>7</td><td>2</td><td>5</td><td>4</td></tr><tr"
            + " class=\"cell corrupt\"><th>fsync=off,x=&lt;&amp;&gt;</th><td>4</td><td>390</td><td>60</td><"
            + "td>3</td><td>40</td><td>3</td></tr></tbody></table>";

    @Test
    void theTableIsTheSameByteForByte() {
        List<PostgresPowerCutMatrix.Row> rows = List.of(
                new PostgresPowerCutMatrix.Row(List.of(), 4, 400, 0, 0, 0, 4),
                new PostgresPowerCutMatrix.Row(List.of("synchronous_commit=off"), 4, 410, 7, 2, 5, 4),
                new PostgresPowerCutMatrix.Row(List.of("fsync=off", "x=<&>"), 4, 390, 60, 3, 40, 3));
        assertThat(PostgresMatrixHtml.html(rows, -7)).isEqualTo(EXPECTED);
    }
}

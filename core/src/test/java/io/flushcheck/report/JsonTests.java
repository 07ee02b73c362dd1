package io.flushcheck.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.MiniJson;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTests {

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        assertThat(Json.write("a\"b\\c\nd\re\tf\u0001g\u001fh"))
                .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh\"\n");
    }

    @Test
    void nonAsciiIsWrittenAsIs() {
        assertThat(Json.write("34 µs – ok")).isEqualTo("\"34 µs – ok\"\n");
    }

    @Test
    void everyEscapedStringReadsBackTheSame() {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < 0x80; c++) {
            all.append(c);
        }
        all.append("µ\u2028\uFFFF");
        assertThat(MiniJson.parse(Json.write(all.toString()))).isEqualTo(all.toString());
    }

    @Test
    void numbers() {
        assertThat(Json.write(2.0)).isEqualTo("2\n");
        assertThat(Json.write(1.5)).isEqualTo("1.5\n");
        assertThat(Json.write(0.12345)).isEqualTo("0.123\n");
        assertThat(Json.write(1.2300)).isEqualTo("1.23\n");
        assertThat(Json.write(Double.NaN)).isEqualTo("null\n");
        assertThat(Json.write(Double.POSITIVE_INFINITY)).isEqualTo("null\n");
        assertThat(Json.write(-3L)).isEqualTo("-3\n");
        assertThat(Json.write(0.0004)).isEqualTo("0\n");
    }

    @Test
    void nestedStructuresArePrettyPrintedAndParse() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "x");
        m.put("n", null);
        m.put("b", true);
        m.put("l", List.of(1, 2));
        m.put("e", Map.of());
        m.put("el", List.of());
        String json = Json.write(m);
        assertThat(json).isEqualTo("{\n  \"s\": \"x\",\n  \"n\": null,\n  \"b\": true,\n  \"l\": [\n    1,\n    2\n  ],\n"
                + "  \"e\": {},\n  \"el\": []\n}\n");
        Map<String, Object> back = MiniJson.object(MiniJson.parse(json));
        assertThat(back).containsEntry("s", "x").containsEntry("n", null).containsEntry("b", true)
                .containsEntry("l", Arrays.asList(1L, 2L));
    }

    @Test
    void otherObjectsAreQuotedWithToString() {
        assertThat(Json.write(new StringBuilder("a\"b"))).isEqualTo("\"a\\\"b\"\n");
    }
}

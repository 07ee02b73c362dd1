package io.flushcheck.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.MiniJson;
import io.flushcheck.verdict.Verdict;
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
        assertThat(Json.write(312.45678)).isEqualTo("312.457\n");
        assertThat(Json.write(Double.NaN)).isEqualTo("null\n");
        assertThat(Json.write(Double.POSITIVE_INFINITY)).isEqualTo("null\n");
        assertThat(Json.write(-3L)).isEqualTo("-3\n");
        assertThat(Json.write(1e20)).isEqualTo("100000000000000000000\n");
    }

    @Test
    void smallNumbersKeepThreeSignificantDigits() {
        assertThat(Json.write(0.00001)).isEqualTo("0.00001\n");
        assertThat(Json.write(0.0004)).isEqualTo("0.0004\n");
        assertThat(Json.write(-0.0123456)).isEqualTo("-0.0123\n");
        assertThat(((Number) MiniJson.parse(Json.write(0.00001))).doubleValue()).isEqualTo(0.00001);
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
        m.put("v", Verdict.REAL_FLUSH);
        String json = Json.write(m);
        assertThat(json).isEqualTo("{\n  \"s\": \"x\",\n  \"n\": null,\n  \"b\": true,\n  \"l\": [\n    1,\n    2\n  ],\n"
                + "  \"e\": {},\n  \"el\": [],\n  \"v\": \"REAL_FLUSH\"\n}\n");
        Map<String, Object> back = MiniJson.object(MiniJson.parse(json));
        assertThat(back).containsEntry("s", "x").containsEntry("n", null).containsEntry("b", true)
                .containsEntry("l", Arrays.asList(1L, 2L)).containsEntry("v", "REAL_FLUSH");
        assertThat(back.keySet()).containsExactly("s", "n", "b", "l", "e", "el", "v");
    }

    record Sample(String name, io.flushcheck.probe.SyncMode mode, Double ratio, List<Verdict> verdicts) {
    }

    @Test
    void aRecordIsAnObjectOfItsComponentsInOrder() {
        assertThat(Json.write(new Sample("x", io.flushcheck.probe.SyncMode.NO_SYNC, null, List.of(Verdict.UNKNOWN))))
                .isEqualTo("{\n  \"name\": \"x\",\n  \"mode\": \"no-sync\",\n  \"ratio\": null,\n  \"verdicts\": [\n"
                        + "    \"UNKNOWN\"\n  ]\n}\n");
    }

    record Sparse(String always, @Json.LeftOutWhenNull String sometimes, @Json.LeftOutWhenNull Long count) {
    }

    record Renamed(@Json.Name("class") String className, int n) {
    }

    @Test
    void aComponentWithANameIsTheFieldOfThatName() {
        assertThat(Json.write(new Renamed("a.B", 1))).isEqualTo("{\n  \"class\": \"a.B\",\n  \"n\": 1\n}\n");
    }

    @Test
    void aComponentLeftOutWhenNullIsNoFieldWhileNullAndAFieldOtherwise() {
        assertThat(Json.write(new Sparse(null, null, null))).isEqualTo("{\n  \"always\": null\n}\n");
        assertThat(Json.write(new Sparse("a", "b", 0L)))
                .isEqualTo("{\n  \"always\": \"a\",\n  \"sometimes\": \"b\",\n  \"count\": 0\n}\n");
    }

    @Test
    void aValueWithoutAJsonFormIsRefused() {
        assertThatThrownBy(() -> Json.write(new StringBuilder("a"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no JSON form for a java.lang.StringBuilder");
    }

    @Test
    void malformedTextIsOneClearError() {
        // Each of these once escaped the old reader as StringIndexOutOfBounds or NumberFormatException.
        for (String bad : new String[] {"\"\\u12\"", "[1-2]", "{\"a\" 1}", "[1,]", "", "{} x", "tru", "\"open"}) {
            assertThatThrownBy(() -> JsonInput.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("not valid JSON: ");
        }
    }

    @Test
    void numbersReadAsLongOrDouble() {
        assertThat(JsonInput.parse("[1, -2, 1.5, 1e3, 12345678901234567890]"))
                .isEqualTo(List.of(1L, -2L, 1.5, 1000.0, 1.2345678901234567e19));
    }

    @Test
    void aFieldOfAnotherKindNamesTheField() {
        Map<String, Object> m = JsonInput.parseObject("{\"mountId\": \"x\", \"verdict\": \"MAYBE\"}");
        assertThatThrownBy(() -> JsonInput.longValue(m, "mountId", 0)).hasMessage("\"mountId\" is not a number: x");
        assertThatThrownBy(() -> JsonInput.constant(m, "verdict", Verdict.class))
                .hasMessage("\"verdict\" is not a Verdict: MAYBE");
    }
}

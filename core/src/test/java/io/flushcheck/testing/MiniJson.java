package io.flushcheck.testing;

import io.flushcheck.report.JsonInput;
import java.util.List;
import java.util.Map;

/**
 * JSON for test assertions: parsing is {@link JsonInput}'s (the reader the guests' results come back
 * through), and the accessors fail as assertions when the shape is not what a test expects.
 */
public final class MiniJson {

    private MiniJson() {
    }

    public static Object parse(String text) {
        return JsonInput.parse(text);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object v) {
        if (!(v instanceof Map)) {
            throw new AssertionError("expected a JSON object, got " + v);
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> array(Object v) {
        if (!(v instanceof List)) {
            throw new AssertionError("expected a JSON array, got " + v);
        }
        return (List<Object>) v;
    }
}

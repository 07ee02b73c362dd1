package io.flushcheck.testing;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The shape of a JSON document, for contract tests: one line per field path and the kind of value found
 * there, {@code results[].storage.mountId: number}, sorted and without repeats (array elements share the
 * path {@code name[]}). An empty object is {@code {}}, an empty array {@code []}, so that a contract can
 * pin that {@code storage} is {@code {}} and not {@code null}.
 */
public final class JsonShape {

    private JsonShape() {
    }

    public static List<String> of(String json) {
        TreeSet<String> lines = new TreeSet<>();
        walk("", MiniJson.parse(json), lines);
        return List.copyOf(lines);
    }

    private static void walk(String path, Object v, TreeSet<String> lines) {
        if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                lines.add(path + ": {}");
            }
            for (Map.Entry<?, ?> e : m.entrySet()) {
                walk(path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey(), e.getValue(), lines);
            }
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                lines.add(path + ": []");
            }
            for (Object o : l) {
                walk(path + "[]", o, lines);
            }
        } else {
            lines.add(path + ": " + kind(v));
        }
    }

    private static String kind(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Number) {
            return "number";
        }
        if (v instanceof Boolean) {
            return "boolean";
        }
        throw new AssertionError("not a JSON value: " + v.getClass());
    }
}

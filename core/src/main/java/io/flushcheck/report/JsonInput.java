package io.flushcheck.report;

import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Reads JSON text through Gson's streaming reader, strictly, into a tree (maps in document order, lists,
 * strings, {@code Long} or {@code Double}, booleans, null), and the typed accessors the readers of the
 * contracts ({@link ResultJson#read}) map it with. Text that is not JSON, or a field of another kind than
 * the contract's, is an {@link IllegalArgumentException} naming where.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JsonInput {

    private JsonInput() {
    }

    /** @throws IllegalArgumentException when the text is not one JSON value */
    public static Object parse(String text) {
        try (JsonReader r = new JsonReader(new StringReader(text))) {
            Object v = value(r);
            if (r.peek() != JsonToken.END_DOCUMENT) {
                throw new IllegalArgumentException("not valid JSON: text after the value at " + r.getPath());
            }
            return v;
        } catch (IOException e) {
            // MalformedJsonException and EOFException are IOExceptions; a StringReader raises no other.
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
        } catch (NumberFormatException | IllegalStateException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
        }
    }

    /** The text's top-level object. */
    public static Map<String, Object> parseObject(String text) {
        return object(parse(text), "the document");
    }

    private static Object value(JsonReader r) throws IOException {
        switch (r.peek()) {
            case BEGIN_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                r.beginObject();
                while (r.hasNext()) {
                    String name = r.nextName();
                    m.put(name, value(r));
                }
                r.endObject();
                return m;
            }
            case BEGIN_ARRAY: {
                List<Object> l = new ArrayList<>();
                r.beginArray();
                while (r.hasNext()) {
                    l.add(value(r));
                }
                r.endArray();
                return l;
            }
            case STRING:
                return r.nextString();
            case NUMBER: {
                String n = r.nextString();
                if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0) {
                    try {
                        return Long.parseLong(n);
                    } catch (NumberFormatException tooLong) {
                        return Double.parseDouble(n);
                    }
                }
                return Double.parseDouble(n);
            }
            case BOOLEAN:
                return r.nextBoolean();
            case NULL:
                r.nextNull();
                return null;
            default:
                throw new IllegalArgumentException("not valid JSON: unexpected " + r.peek() + " at " + r.getPath());
        }
    }

    // ------------------------------------------------------------------ typed accessors

    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object v, String what) {
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException(what + " is not a JSON object: " + brief(v));
        }
        return (Map<String, Object>) v;
    }

    /** The field's list, empty when the field is absent or null. */
    @SuppressWarnings("unchecked")
    public static List<Object> list(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List)) {
            throw new IllegalArgumentException("\"" + key + "\" is not a JSON array: " + brief(v));
        }
        return (List<Object>) v;
    }

    /** The field's string, or null when absent or null. */
    public static String string(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException("\"" + key + "\" is not a string: " + brief(v));
        }
        return (String) v;
    }

    /** The field's whole number, or {@code absent} when absent or null. */
    public static long longValue(Map<String, Object> m, String key, long absent) {
        Object v = m.get(key);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("\"" + key + "\" is not a number: " + brief(v));
        }
        return n.longValue();
    }

    /** The field's number, or NaN when absent or null. */
    public static double doubleValue(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            return Double.NaN;
        }
        if (!(v instanceof Number n)) {
            throw new IllegalArgumentException("\"" + key + "\" is not a number: " + brief(v));
        }
        return n.doubleValue();
    }

    /** The field's boolean, or null when absent or null. */
    public static Boolean bool(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v != null && !(v instanceof Boolean)) {
            throw new IllegalArgumentException("\"" + key + "\" is not a boolean: " + brief(v));
        }
        return (Boolean) v;
    }

    /** The field's constant of {@code type} by name, or null when absent or null. */
    public static <E extends Enum<E>> E constant(Map<String, Object> m, String key, Class<E> type) {
        String s = string(m, key);
        if (s == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + key + "\" is not a " + type.getSimpleName() + ": " + s, e);
        }
    }

    private static String brief(Object v) {
        String s = String.valueOf(v);
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}

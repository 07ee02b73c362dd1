package io.flushcheck.report;

import com.google.gson.stream.JsonWriter;
import io.flushcheck.probe.SyncMode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Writes JSON text, pretty-printed with two spaces, through Gson's streaming writer (which does the quoting
 * and escaping): the one place flushcheck makes JSON. Takes a tree of maps (in their order), lists,
 * strings, numbers, booleans, enums (their names; a {@link SyncMode} its id), null, {@link ResultData} (the
 * result contract, {@link ResultJson}; with more fields, {@link ExtendedResult}) and other records (an object
 * of their components, in order; a component marked {@link LeftOutWhenNull} is no field at all while it is
 * null, one marked {@link Name} has that name).
 *
 * <p>Numbers: whole numbers as integers; others to three decimals, or three significant digits below 0.1,
 * so that {@code 0.00001} stays {@code 0.00001}; NaN and infinities, which JSON has no word for, as
 * {@code null}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Json {

    /**
     * On a record component: while its value is null the record's object has no such field, for fields a
     * contract writes only when they apply (rather than as {@code null}).
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.RECORD_COMPONENT)
    public @interface LeftOutWhenNull {
    }

    /** On a record component: its field's name, where the contract's name is no Java name ({@code class}). */
    @API(status = API.Status.INTERNAL, since = "0.1")
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.RECORD_COMPONENT)
    public @interface Name {
        String value();
    }

    private static final MathContext SMALL = new MathContext(3, RoundingMode.HALF_UP);

    private Json() {
    }

    /** The JSON text of {@code value}, ending in a newline. */
    public static String write(Object value) {
        StringWriter out = new StringWriter();
        try {
            JsonWriter w = writer(out);
            value(w, value);
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.append('\n').toString();
    }

    static JsonWriter writer(StringWriter out) {
        JsonWriter w = new JsonWriter(out);
        w.setIndent("  ");
        w.setSerializeNulls(true);
        w.setHtmlSafe(false);
        return w;
    }

    static void value(JsonWriter w, Object v) throws IOException {
        // instanceof, not a visitor or streams: this runs on the command's cold path (no lambdas there).
        if (v == null) {
            w.nullValue();
        } else if (v instanceof String s) {
            w.value(s);
        } else if (v instanceof Boolean b) {
            w.value(b.booleanValue());
        } else if (v instanceof Double || v instanceof Float) {
            number(w, ((Number) v).doubleValue());
        } else if (v instanceof Number n) {
            w.value(n.longValue());
        } else if (v instanceof SyncMode m) {
            w.value(m.id());
        } else if (v instanceof Enum<?> e) {
            w.value(e.name());
        } else if (v instanceof ResultData r) {
            ResultJson.write(w, r);
        } else if (v instanceof ExtendedResult e) {
            ResultJson.write(w, e.result(), e.fields(), e.costFields());
        } else if (v instanceof Record r) {
            record(w, r);
        } else if (v instanceof Map<?, ?> m) {
            w.beginObject();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                w.name(String.valueOf(e.getKey()));
                value(w, e.getValue());
            }
            w.endObject();
        } else if (v instanceof List<?> l) {
            w.beginArray();
            for (Object o : l) {
                value(w, o);
            }
            w.endArray();
        } else {
            throw new IllegalArgumentException("no JSON form for a " + v.getClass().getName());
        }
    }

    /** A record as an object of its components, in their order: a component's name is its field's. */
    private static void record(JsonWriter w, Record r) throws IOException {
        w.beginObject();
        fields(w, r);
        w.endObject();
    }

    /** A record's components as fields of the object being written. */
    static void fields(JsonWriter w, Record r) throws IOException {
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object value;
            try {
                value = c.getAccessor().invoke(r);
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException("cannot read " + r.getClass().getName() + "." + c.getName(), e);
            }
            if (value == null && c.isAnnotationPresent(LeftOutWhenNull.class)) {
                continue;
            }
            Name name = c.getAnnotation(Name.class);
            w.name(name == null ? c.getName() : name.value());
            value(w, value);
        }
    }

    static void number(JsonWriter w, double d) throws IOException {
        String text = number(d);
        if (text == null) {
            w.nullValue();
        } else {
            w.jsonValue(text);
        }
    }

    /** The JSON text of a number, or null for NaN and the infinities. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return null;
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        BigDecimal b = new BigDecimal(d);
        b = Math.abs(d) >= 0.1 ? b.setScale(3, RoundingMode.HALF_UP) : b.round(SMALL);
        return b.stripTrailingZeros().toPlainString();
    }
}

package io.flushcheck.jupiter;

import java.lang.reflect.RecordComponent;
import java.util.List;

/**
 * A value as a record's {@code toString} shows it ({@code Name[a=1, b=[x, y]]}), every component of every
 * nested record included, for the shared verdict's key. Read through reflection rather than by calling the
 * records' own {@code toString}: each record class's first {@code toString} bootstraps its method handles, a
 * few milliseconds apiece in a fresh fork, which is what a fork that reads a shared verdict is made of.
 */
final class RecordText {

    private RecordText() {
    }

    static String of(Object value) {
        StringBuilder sb = new StringBuilder();
        append(sb, value);
        return sb.toString();
    }

    private static void append(StringBuilder sb, Object value) {
        if (value instanceof Record r) {
            try {
                StringBuilder fields = new StringBuilder();
                RecordComponent[] components = r.getClass().getRecordComponents();
                for (int i = 0; i < components.length; i++) {
                    fields.append(i == 0 ? "" : ", ").append(components[i].getName()).append('=');
                    append(fields, components[i].getAccessor().invoke(r));
                }
                sb.append(r.getClass().getSimpleName()).append('[').append(fields).append(']');
            } catch (ReflectiveOperationException | RuntimeException e) {
                sb.append(r); // a record this class may not read (not public): its own text, whatever that costs
            }
        } else if (value instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                sb.append(i == 0 ? "" : ", ");
                append(sb, list.get(i));
            }
            sb.append(']');
        } else {
            sb.append(value);
        }
    }
}

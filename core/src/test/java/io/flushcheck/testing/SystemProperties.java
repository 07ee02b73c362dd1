package io.flushcheck.testing;

import java.util.function.Supplier;

/** Runs code with one JVM system property set (or cleared, for null), and puts the old value back after it. */
public final class SystemProperties {

    private SystemProperties() {
    }

    public static <T> T with(String key, String value, Supplier<T> body) {
        String old = System.getProperty(key);
        set(key, value);
        try {
            return body.get();
        } finally {
            set(key, old);
        }
    }

    private static void set(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}

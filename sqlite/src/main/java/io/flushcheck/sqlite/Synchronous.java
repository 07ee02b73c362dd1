package io.flushcheck.sqlite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/** SQLite's {@code PRAGMA synchronous} levels (https://www.sqlite.org/pragma.html#pragma_synchronous). */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum Synchronous {
    OFF(0), NORMAL(1), FULL(2), EXTRA(3);

    private final int level;

    Synchronous(int level) {
        this.level = level;
    }

    /** The number {@code PRAGMA synchronous} returns. */
    public int level() {
        return level;
    }

    public static Synchronous ofLevel(int level) {
        for (Synchronous s : values()) {
            if (s.level == level) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown synchronous level " + level + ": SQLite knows 0 to 3");
    }

    /** Parses a name or level (OFF/0, NORMAL/1, FULL/2, EXTRA/3), case-insensitively. */
    public static Synchronous parse(String s) {
        String v = s.trim().toUpperCase(Locale.ROOT);
        if (v.length() == 1 && Character.isDigit(v.charAt(0))) {
            int level = v.charAt(0) - '0';
            if (level <= 3) {
                return ofLevel(level);
            }
        }
        try {
            return valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown synchronous setting '" + s + "': use one of " + names());
        }
    }

    public static List<Synchronous> parseList(String csv) {
        List<Synchronous> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            if (!p.isBlank()) {
                out.add(parse(p));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no synchronous setting given: use one or more of " + names());
        }
        return out;
    }

    public static String names() {
        return "OFF, NORMAL, FULL, EXTRA";
    }
}

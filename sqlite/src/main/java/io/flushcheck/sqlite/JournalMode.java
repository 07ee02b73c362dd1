package io.flushcheck.sqlite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/** SQLite's {@code PRAGMA journal_mode} values (https://www.sqlite.org/pragma.html#pragma_journal_mode). */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum JournalMode {
    DELETE, TRUNCATE, PERSIST, MEMORY, WAL, OFF;

    /** True for the three rollback-journal modes that keep their journal in a file next to the database. */
    public boolean rollbackOnDisk() {
        return this == DELETE || this == TRUNCATE || this == PERSIST;
    }

    /**
     * Parses a name as SQLite prints it, case-insensitively.
     *
     * @throws IllegalArgumentException naming the bad value and the valid ones
     */
    public static JournalMode parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown journal mode '" + s + "': use one of " + names());
        }
    }

    public static List<JournalMode> parseList(String csv) {
        List<JournalMode> out = new ArrayList<>();
        for (String p : csv.split(",")) {
            if (!p.isBlank()) {
                out.add(parse(p));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no journal mode given: use one or more of " + names());
        }
        return out;
    }

    public static String names() {
        List<String> n = new ArrayList<>();
        for (JournalMode m : values()) {
            n.add(m.name());
        }
        return String.join(", ", n);
    }
}

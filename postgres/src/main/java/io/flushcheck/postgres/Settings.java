package io.flushcheck.postgres;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** Server settings as a user writes them: {@code name=value}, several in one row separated by commas. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Settings {

    private Settings() {
    }

    /**
     * One row of settings from {@code "a=1,b=2"} (blank: the defaults).
     *
     * @throws IllegalArgumentException naming the part that is no {@code name=value}
     */
    public static List<String> parseRow(String text) {
        List<String> row = new ArrayList<>();
        if (text.isBlank()) {
            return row;
        }
        for (String part : text.split(",")) {
            row.add(check(part.strip()));
        }
        return row;
    }

    /** {@code setting} itself when it is {@code name=value} with a name PostgreSQL could have. */
    static String check(String setting) {
        int eq = setting.indexOf('=');
        if (eq <= 0 || eq == setting.length() - 1 || !setting.substring(0, eq).matches("[a-z_][a-z0-9_.]*")) {
            throw new IllegalArgumentException("a setting is name=value, like synchronous_commit=off, not '" + setting + "'");
        }
        return setting;
    }

    /** A row as the table shows it: its settings joined by commas, or "defaults". */
    public static String describe(List<String> row) {
        return row.isEmpty() ? "defaults" : String.join(",", row);
    }
}

package io.flushcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The one boolean grammar of flushcheck, for command-line values and configuration keys alike:
 * {@code true}/{@code false}, {@code yes}/{@code no}, {@code on}/{@code off} and {@code 1}/{@code 0},
 * case-insensitive, surrounding blanks ignored.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Booleans {

    /** What the grammar allows, for messages. */
    public static final String ALLOWED = "true, false, yes, no, on, off, 1 or 0";

    private Booleans() {
    }

    /**
     * One boolean.
     *
     * @throws IllegalArgumentException naming the value and what is allowed
     */
    public static boolean parse(String value) {
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on", "1":
                return true;
            case "false", "no", "off", "0":
                return false;
            default:
                throw new IllegalArgumentException("'" + value.trim() + "' is not a boolean: use " + ALLOWED);
        }
    }

    /**
     * A comma-separated list of booleans, in order ({@code 0,1}, {@code off,on}).
     *
     * @throws IllegalArgumentException naming the first value that is not a boolean
     */
    public static List<Boolean> parseList(String csv) {
        List<Boolean> out = new ArrayList<>();
        for (String p : csv.split(",", -1)) {
            out.add(parse(p));
        }
        return out;
    }
}

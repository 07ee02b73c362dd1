package io.flushcheck.text;

import org.apiguardian.api.API;

/**
 * Makes a string safe to print where a person reads it: a terminal, a text report, a one-line error,
 * a test failure. A path name may hold any byte but '/' and NUL; printed raw, a newline forges a line
 * of the report, a tab shifts it and an escape sequence (ESC, U+001B) drives the terminal.
 *
 * <p>Every human-readable output passes the data it prints (paths, finding messages, error messages)
 * through {@link #of}; the JSON output escapes with its own rules (the report package's {@code Json}). Escaped: the C0
 * controls as {@code \n}, {@code \t}, {@code \r} or {@code \xHH} (ESC is {@code \x1b}), DEL and the
 * C1 controls as {@code \xHH}, and the characters that reorder or break lines on a terminal (U+2028,
 * U+2029 and the bidirectional overrides and isolates) as a backslash, {@code u} and four hex digits. Everything else, backslashes
 * included, stands for itself.
 *
 * <p>On the path of a cold tmpfs verdict (the text report uses it): a plain loop, no regex.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Escape {

    private static final char[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

    private Escape() {
    }

    /** {@code s} with its control characters escaped; {@code s} itself when it has none; "null" for null. */
    public static String of(String s) {
        if (s == null) {
            return "null";
        }
        int i = 0;
        int n = s.length();
        while (i < n && !needsEscape(s.charAt(i))) {
            i++;
        }
        if (i == n) {
            return s;
        }
        StringBuilder sb = new StringBuilder(n + 16).append(s, 0, i);
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (!needsEscape(c)) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c <= 0xff) {
                sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            } else {
                sb.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                        .append(HEX[c & 0xf]);
            }
        }
        return sb.toString();
    }

    /** {@link #of} of the object's string form. */
    public static String of(Object o) {
        return of(o == null ? null : o.toString());
    }

    static boolean needsEscape(char c) {
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
            return true;
        }
        if (c < 0x200e) {
            return false;
        }
        return c == 0x200e || c == 0x200f || c == 0x2028 || c == 0x2029 || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069);
    }
}

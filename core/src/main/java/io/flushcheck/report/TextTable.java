package io.flushcheck.report;

import io.flushcheck.text.Escape;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The one text table of flushcheck's reports (the probe's summary, the SQLite matrix, the host/guest
 * comparison, the guests' verdicts): a header row, then rows, each column as wide as its widest cell,
 * columns one space apart, text columns left-aligned and figure columns right-aligned, no trailing blanks.
 * Cells are printed as given: escape what comes from outside ({@link Escape}) before adding it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TextTable {

    private final List<String> headers = new ArrayList<>();
    private final List<Boolean> right = new ArrayList<>();
    private final List<String[]> rows = new ArrayList<>();

    /** A column of text, left-aligned. */
    public TextTable text(String header) {
        headers.add(header);
        right.add(false);
        return this;
    }

    /** A column of figures, right-aligned. */
    public TextTable figure(String header) {
        headers.add(header);
        right.add(true);
        return this;
    }

    /**
     * A row, one cell per column; null is an empty cell.
     *
     * @throws IllegalArgumentException when the number of cells is not the number of columns
     */
    public TextTable row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.size() + " columns");
        }
        rows.add(cells.clone());
        return this;
    }

    /** The table, each line ending in a newline. */
    public String render() {
        int n = headers.size();
        int[] width = new int[n];
        for (int c = 0; c < n; c++) {
            width[c] = length(headers.get(c));
        }
        for (String[] r : rows) {
            for (int c = 0; c < n; c++) {
                width[c] = Math.max(width[c], length(r[c]));
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, headers.toArray(new String[0]), width);
        for (String[] r : rows) {
            line(sb, r, width);
        }
        return sb.toString();
    }

    private void line(StringBuilder sb, String[] cells, int[] width) {
        int start = sb.length();
        for (int c = 0; c < cells.length; c++) {
            String s = cells[c] == null ? "" : cells[c];
            int pad = width[c] - length(s);
            if (c > 0) {
                sb.append(' ');
            }
            if (right.get(c)) {
                sb.append(" ".repeat(pad)).append(s);
            } else {
                sb.append(s).append(" ".repeat(pad));
            }
        }
        int end = sb.length();
        while (end > start && sb.charAt(end - 1) == ' ') {
            end--;
        }
        sb.setLength(end);
        sb.append('\n');
    }

    /** Width in characters as a terminal shows them (code points: µ is one). */
    private static int length(String s) {
        return s == null ? 0 : s.codePointCount(0, s.length());
    }
}

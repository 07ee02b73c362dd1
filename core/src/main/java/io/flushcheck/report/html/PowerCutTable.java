package io.flushcheck.report.html;

import java.util.List;
import org.apiguardian.api.API;

/**
 * A power-cut matrix as an HTML table, for SQLite's and PostgreSQL's alike: the seed that repeats the run, then one
 * row per setting with its labels, the cuts, the commits acknowledged, those lost, the cuts that lost any, the most
 * lost in one cut and a last count of the matrix's own (corrupt cuts, recovered cuts); a row whose survivor was not
 * always whole is marked corrupt, one that lost commits lost, the others kept.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PowerCutTable {

    /**
     * One row of the table.
     *
     * @param labels the setting's names, one header cell each, as plain text
     * @param last   the matrix's last column
     * @param broken whether some cut's survivor was not whole
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public record Row(List<String> labels, int cuts, long acknowledged, long lost, int cutsThatLost, long maxLostInOneCut,
                      long last, boolean broken) {

        public Row {
            labels = List.copyOf(labels);
        }
    }

    private PowerCutTable() {
    }

    /** The table under {@code labelHeads} (one per label) and {@code lastHead}, after the note of its {@code seed}. */
    public static String html(List<String> labelHeads, String lastHead, List<Row> rows, long seed) {
        StringBuilder sb = new StringBuilder();
        sb.append("<p class=\"note\">seed ").append(seed)
                .append(": each cut's commits and surviving sectors derive from it, so the same seed repeats the run</p>");
        sb.append("<table class=\"numbers powercut\"><thead><tr>");
        for (String head : labelHeads) {
            sb.append("<th>").append(Html.text(head)).append("</th>");
        }
        sb.append("<th>cuts</th><th>acknowledged</th><th>lost</th><th>cuts that lost</th><th>most lost in one cut</th>"
                + "<th>").append(Html.text(lastHead)).append("</th></tr></thead><tbody>");
        for (Row r : rows) {
            String kind = r.broken() ? "corrupt" : r.lost() > 0 ? "lost" : "kept";
            sb.append("<tr class=\"cell ").append(kind).append("\">");
            for (String label : r.labels()) {
                sb.append("<th>").append(Html.text(label)).append("</th>");
            }
            sb.append("<td>").append(r.cuts()).append("</td><td>").append(r.acknowledged()).append("</td><td>")
                    .append(r.lost()).append("</td><td>").append(r.cutsThatLost()).append("</td><td>")
                    .append(r.maxLostInOneCut()).append("</td><td>").append(r.last()).append("</td></tr>");
        }
        return sb.append("</tbody></table>").toString();
    }
}

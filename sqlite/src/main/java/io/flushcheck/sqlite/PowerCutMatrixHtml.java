package io.flushcheck.sqlite;

import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.report.html.PowerCutTable;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The power-cut matrix as a section of the HTML report: one table row per journal mode and synchronous
 * level, with the commits acknowledged, those lost, the cuts that lost any, the most lost in one cut and the
 * cuts that left a corrupt database; a row that lost or corrupted anything is marked.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PowerCutMatrixHtml {

    private PowerCutMatrixHtml() {
    }

    public static HtmlReport addTo(HtmlReport report, List<PowerCutMatrix.Row> rows, long seed) {
        return report.addSection("powercut-sqlite", "SQLite under power cuts", html(rows, seed));
    }

    static String html(List<PowerCutMatrix.Row> rows, long seed) {
        List<PowerCutTable.Row> table = new ArrayList<>();
        for (PowerCutMatrix.Row r : rows) {
            table.add(new PowerCutTable.Row(List.of(r.journalMode().name(), r.synchronous().name()), r.cuts(),
                    r.acknowledged(), r.lost(), r.cutsThatLost(), r.maxLostInOneCut(), r.corrupt(), r.corrupt() > 0));
        }
        return PowerCutTable.html(List.of("journal", "synchronous"), "corrupt", table, seed);
    }
}

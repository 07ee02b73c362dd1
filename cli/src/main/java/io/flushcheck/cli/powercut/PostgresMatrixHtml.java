package io.flushcheck.cli.powercut;

import io.flushcheck.postgres.PostgresPowerCutMatrix;
import io.flushcheck.postgres.Settings;
import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.report.html.PowerCutTable;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL power-cut matrix as a section of the HTML report: one table row per row of settings, with
 * the commits acknowledged, those lost, the cuts that lost any, the most lost in one cut and the cuts that
 * recovered; a row that lost anything, or did not recover, is marked.
 */
final class PostgresMatrixHtml {

    private PostgresMatrixHtml() {
    }

    static HtmlReport addTo(HtmlReport report, List<PostgresPowerCutMatrix.Row> rows, long seed) {
        return report.addSection("powercut-postgres", "PostgreSQL under power cuts", html(rows, seed));
    }

    static String html(List<PostgresPowerCutMatrix.Row> rows, long seed) {
        List<PowerCutTable.Row> table = new ArrayList<>();
        for (PostgresPowerCutMatrix.Row r : rows) {
            table.add(new PowerCutTable.Row(List.of(Settings.describe(r.settings())), r.cuts(), r.acknowledged(), r.lost(),
                    r.cutsThatLost(), r.maxLostInOneCut(), r.recovered(), r.recovered() < r.cuts()));
        }
        return PowerCutTable.html(List.of("settings"), "recovered", table, seed);
    }
}

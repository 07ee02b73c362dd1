package io.flushcheck.report.html;

/** The page's whole style sheet, inline: system fonts only, colours that print. */
final class Style {

    private Style() {
    }

    static final String CSS = """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
            header{background:#1d2330;color:#fff;padding:14px 24px}
            header h1{margin:0;font-size:20px}
            header .meta{margin:4px 0 0;color:#c6ccd8;font-size:12px}
            nav ul{list-style:none;padding:0;margin:8px 0 0;display:flex;flex-wrap:wrap;gap:6px 14px}
            nav a{color:#9cc3ff}
            main{padding:8px 24px 40px}
            .report-section{background:#fff;border:1px solid #dde1e8;border-radius:6px;padding:12px 18px;margin:16px 0}
            h2{font-size:17px;margin:4px 0 10px;word-break:break-all}
            h3{font-size:15px;margin:16px 0 6px}
            .headline{border-left:6px solid #999;padding:6px 12px;background:#f3f4f6;border-radius:3px}
            .headline .verdict{font-weight:700;font-size:18px}
            .headline.verdict-REAL_FLUSH{border-color:#1a7f37}.verdict-REAL_FLUSH .verdict,td.verdict-REAL_FLUSH{color:#1a7f37}
            .headline.verdict-NO_REAL_FLUSH{border-color:#cf222e}.verdict-NO_REAL_FLUSH .verdict,td.verdict-NO_REAL_FLUSH{color:#cf222e}
            .headline.verdict-UNKNOWN{border-color:#bf8700}.verdict-UNKNOWN .verdict,td.verdict-UNKNOWN{color:#9a6700}
            .elapsed{color:#57606a;font-size:12px}
            .findings{margin:6px 0 2px;padding-left:18px}
            .findings code{font-size:12px;background:#e8ebf0;padding:0 3px;border-radius:3px}
            table{border-collapse:collapse;margin:6px 0}
            th,td{padding:3px 9px;border-bottom:1px solid #e4e7ec;text-align:left;vertical-align:top}
            table.numbers td{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
            table.facts th{color:#57606a;font-weight:500;white-space:nowrap}
            .plots{display:flex;flex-wrap:wrap;gap:10px}
            figure{margin:6px 0}
            figcaption{font-size:12px;color:#57606a;text-align:center}
            article.mode{border-top:1px solid #e4e7ec;margin-top:10px}
            .figures{margin:4px 0}
            .left-out{color:#57606a;margin:2px 0}
            svg.plot{background:#fff;font-size:11px}
            svg .bar{fill:#4c78a8}
            svg .bar.series-1,svg .swatch.series-1{fill:#f58518}
            svg .bar.series-2,svg .swatch.series-2{fill:#54a24b}
            svg .bar.series-3,svg .swatch.series-3{fill:#b279a2}
            svg .bar.series-4,svg .swatch.series-4{fill:#e45756}
            svg .bar.series-5,svg .swatch.series-5{fill:#72b7b2}
            svg .swatch.series-0{fill:#4c78a8}
            svg .axis{stroke:#333;stroke-width:1}
            svg .grid{stroke:#e6e8ec;stroke-width:1}
            svg .curve{fill:none;stroke:#4c78a8;stroke-width:2}
            svg .mark{fill:#f58518}
            svg .tick,svg .value,svg .legend{fill:#444}
            svg .group{fill:#1d2330;font-weight:600}
            svg .axis-title{fill:#1d2330;font-size:12px}
            table.matrix td.rate{font-weight:600}
            .note{color:#57606a;font-size:12px;margin:2px 0}
            .callout{background:#fff4e5;border-left:4px solid #bf8700;padding:4px 10px;margin:6px 0}
            """;
}

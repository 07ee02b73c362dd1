package io.flushcheck.report.html;

import io.flushcheck.CheckResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One self-contained HTML page of results: inline CSS and SVG, no script, no font, nothing fetched when
 * it is opened. Sections are added in the order they are shown; the probe's paths come with their modes
 * side by side and, where there are several paths, the paths side by side. Other modules (SQLite, guests,
 * power cuts) add their own sections as HTML built with {@link Html}'s escaping.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class HtmlReport {

    private final String title;
    private final List<String> sections = new ArrayList<>();
    private final List<String[]> contents = new ArrayList<>(); // {id, heading}

    public HtmlReport(String title) {
        this.title = title;
    }

    /** The checked directories: one section each, then the paths compared when there are several. */
    public HtmlReport addResults(List<CheckResult> results) {
        List<PathFigures> figures = new ArrayList<>();
        for (CheckResult r : results) {
            figures.add(PathFigures.of(r));
        }
        return addPaths(figures, "path");
    }

    /** Directories as figures (a guest's results come as JSON); {@code idPrefix} keeps section ids apart. */
    public HtmlReport addPaths(List<PathFigures> paths, String idPrefix) {
        for (int i = 0; i < paths.size(); i++) {
            PathFigures p = paths.get(i);
            addSection(idPrefix + "-" + (i + 1), p.title(), PathSection.html(p));
        }
        String compared = PathSection.comparePaths(paths);
        if (compared != null) {
            addSection(idPrefix + "s-compared", "Paths side by side", compared);
        }
        return this;
    }

    /** A directory's verdict and findings as a section's headline, for sections of other modules. */
    public static String headline(PathFigures p) {
        return PathSection.headline(p);
    }

    /** A section of already escaped HTML under {@code heading} (plain text). */
    public HtmlReport addSection(String id, String heading, String bodyHtml) {
        contents.add(new String[] {id, heading});
        sections.add("<section class=\"report-section\" id=\"" + Html.attr(id) + "\"><h2>" + Html.text(heading) + "</h2>"
                + bodyHtml + "</section>\n");
        return this;
    }

    public String render() {
        StringBuilder sb = new StringBuilder(64 * 1024);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                // No fetch of any kind: the page carries everything it shows.
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>").append(Html.text(title)).append("</title><style>").append(Style.CSS).append("</style></head><body>\n")
                .append("<header><h1>").append(Html.text(title)).append("</h1><p class=\"meta\">flushcheck, ")
                .append(Html.text(Instant.now().toString())).append(". Latencies are raw round times of a closed loop, with no"
                        + " coordinated-omission correction.</p>");
        if (contents.size() > 1) {
            sb.append("<nav><ul>");
            for (String[] c : contents) {
                sb.append("<li><a href=\"#").append(Html.attr(c[0])).append("\">").append(Html.text(c[1])).append("</a></li>");
            }
            sb.append("</ul></nav>");
        }
        sb.append("</header>\n<main>\n");
        for (String s : sections) {
            sb.append(s);
        }
        if (sections.isEmpty()) {
            sb.append("<p>No measurement was made.</p>");
        }
        sb.append("</main></body></html>\n");
        return sb.toString();
    }

    /** Writes the page to {@code file} through a temporary file beside it, so a reader never sees half a page. */
    public void writeTo(Path file) throws IOException {
        Path abs = file.toAbsolutePath();
        Path tmp = abs.resolveSibling(abs.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, render(), StandardCharsets.UTF_8);
            Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}

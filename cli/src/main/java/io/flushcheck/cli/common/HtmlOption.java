package io.flushcheck.cli.common;

import io.flushcheck.report.html.HtmlReport;
import io.flushcheck.text.Escape;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;
import picocli.CommandLine.Option;

/**
 * {@code --html FILE}: the results also as one self-contained HTML page. A command adds it as a
 * {@code @Mixin}, checks it with {@link #check} before measuring (a page that cannot be written is a usage
 * error before anything runs), fills an {@link HtmlReport} and hands it to {@link #write}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class HtmlOption {

    @Option(names = "--html", paramLabel = "FILE",
            description = "also write the results as one self-contained HTML page (plots, no network) to FILE")
    String file;

    private Path target;

    public boolean wanted() {
        return file != null;
    }

    /** The page's path; refused (exit 2) when its directory does not exist or it names a directory. */
    public Path check() throws UsageException {
        if (file == null) {
            return null;
        }
        Path p = Values.path(file).toAbsolutePath();
        if (file.isEmpty() || Files.isDirectory(p)) {
            throw new UsageException("--html: '" + file + "' is a directory, not a file to write");
        }
        Path parent = p.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new UsageException("--html: the directory of '" + file + "' does not exist");
        }
        if (!Files.isWritable(parent)) {
            throw new UsageException("--html: cannot write in the directory of '" + file + "' (permission denied)");
        }
        target = p;
        return p;
    }

    /**
     * Writes the page; a failure is one line on stderr and exit 4, as for results that cannot reach stdout.
     *
     * @return {@code code}, or {@link ExitCodes#OUTPUT} when the page could not be written
     */
    public int write(HtmlReport report, PrintStream err, int code) {
        if (target == null) {
            return code;
        }
        try {
            report.writeTo(target);
            return code;
        } catch (IOException | RuntimeException e) {
            err.println("flushcheck: could not write the HTML report " + Escape.of(file) + ": " + Escape.of(String.valueOf(e.getMessage())));
            return code == ExitCodes.OK || code == ExitCodes.NOT_REAL_FLUSH ? ExitCodes.OUTPUT : code;
        }
    }
}

package io.flushcheck.cli.common;

import io.flushcheck.text.Escape;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Progress on stderr that fits where it goes. On a terminal, one line per item (a path, a SQLite matrix,
 * a guest environment) that is rewritten in place and, when the item ends, replaced by its one-line
 * result; elsewhere (a CI log, a pipe, a file) only the lines a log needs: {@link #step} lines, at most
 * one per mode, cell or environment, and nothing that rewrites itself. {@code --quiet} makes none at all.
 *
 * <p>Every text is escaped here ({@link Escape}): a name holding a newline or ESC cannot break the line.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StatusLine {

    /** A terminal is repainted at most this often: a probe's rounds can come every few microseconds. */
    private static final long REPAINT_NANOS = 100_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private final boolean quiet;
    private int width;
    private boolean shown;
    private long lastPaint;

    StatusLine(PrintStream err, boolean terminal, boolean quiet) {
        this.err = err;
        this.terminal = terminal;
        this.quiet = quiet;
    }

    /** A line for {@code err}: a terminal's when err is this process's stderr and that is a terminal. */
    public static StatusLine on(PrintStream err, boolean quiet) {
        return new StatusLine(err, !quiet && err == System.err && Terminal.stderrIsTerminal(), quiet);
    }

    public boolean terminal() {
        return terminal;
    }

    /**
     * The item's state now: painted over the current line on a terminal (at most every 100 ms unless
     * {@code force}), dropped elsewhere.
     */
    public void update(String text, boolean force) {
        if (!terminal) {
            return;
        }
        long now = System.nanoTime();
        if (!force && shown && now - lastPaint < REPAINT_NANOS) {
            return;
        }
        lastPaint = now;
        paint(text);
    }

    /**
     * As {@link #update(String, boolean)} for {@code before + name + after}, with {@code name} (a path)
     * shortened from its start when the whole would not fit: the figures after it are what changes.
     */
    public void update(String before, String name, String after, boolean force) {
        if (!terminal) {
            return;
        }
        if (width == 0) {
            width = Terminal.columns();
        }
        String n = Escape.of(name);
        int room = width - 1 - before.length() - after.length();
        if (n.length() > room) {
            n = "..." + n.substring(Math.min(n.length(), n.length() - Math.max(8, room - 3)));
        }
        update(before + n + after, force);
    }

    /** A line a log keeps (a mode or a cell starting): printed off a terminal, dropped on one. */
    public void step(String text) {
        if (!terminal && !quiet) {
            err.println(Escape.of(text));
        }
    }

    /** The item ended: its one-line result replaces the live line on a terminal; elsewhere it is printed when {@code always}. */
    public void finish(String text, boolean always) {
        if (quiet) {
            return;
        }
        if (terminal) {
            paint(text);
            err.print('\n');
            err.flush();
            shown = false;
        } else if (always) {
            err.println(Escape.of(text));
        }
    }

    /** A line everyone must see (a warning, files removed from the user's directory), even with --quiet. */
    public void say(String text) {
        if (terminal && shown) {
            err.print("\r\u001b[K");
            shown = false;
        }
        err.println(Escape.of(text));
    }

    private void paint(String text) {
        if (width == 0) {
            width = Terminal.columns();
        }
        String line = Escape.of(text);
        // One character short of the width: a full line would wrap on some terminals and \r would then
        // return to the second row, leaving the first behind.
        if (line.length() > width - 1) {
            line = line.substring(0, Math.max(0, width - 4)) + "...";
        }
        err.print("\r\u001b[K" + line);
        err.flush();
        shown = true;
    }

    /** {@code [#########...........]}: {@code done} of {@code total} in {@code cells} characters. */
    public static String bar(double fraction, int cells) {
        int full = (int) Math.round(Math.max(0, Math.min(1, fraction)) * cells);
        return "[" + "#".repeat(full) + ".".repeat(cells - full) + "]";
    }

    /** {@code 950 ms}, {@code 12.3 s}, {@code 4 min 05 s}. */
    public static String duration(long nanos) {
        double s = nanos / 1e9;
        if (s < 1) {
            return String.format(Locale.ROOT, "%.0f ms", s * 1000);
        }
        if (s < 100) {
            return String.format(Locale.ROOT, "%.1f s", s);
        }
        long whole = Math.round(s);
        return String.format(Locale.ROOT, "%d min %02d s", whole / 60, whole % 60);
    }

    /** Whether this process's standard error is a terminal, and how wide it is. */
    static final class Terminal {

        private Terminal() {
        }

        static boolean stderrIsTerminal() {
            if ("dumb".equals(System.getenv("TERM"))) {
                return false;
            }
            File fd2 = new File("/proc/self/fd/2");
            if (fd2.exists()) {
                try {
                    String target = fd2.getCanonicalPath();
                    return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
                } catch (IOException e) {
                    return false;
                }
            }
            // No /proc (macOS): the JDK's console is there when standard input and output are terminals.
            return System.console() != null;
        }

        /** Columns of the terminal on stderr: {@code stty size} asked about descriptor 2, else COLUMNS, else 80. */
        static int columns() {
            try {
                Process p = new ProcessBuilder("sh", "-c", "stty size <&2").redirectError(ProcessBuilder.Redirect.INHERIT).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
                p.waitFor();
                int space = out.indexOf(' ');
                if (space > 0) {
                    int cols = Integer.parseInt(out.substring(space + 1).trim());
                    if (cols >= 20) {
                        return cols;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // fall through to COLUMNS
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                int cols = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80"));
                return cols >= 20 ? cols : 80;
            } catch (NumberFormatException e) {
                return 80;
            }
        }
    }
}

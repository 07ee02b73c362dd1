package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.report.Escape;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar flushcheck.jar [COMMAND] [options]}: dispatches to the path probe (default),
 * or to a named subcommand.
 */
public final class Main {

    private static final String HINT = " (see flushcheck --help)";

    private Main() {
    }

    public static void main(String[] args) {
        Warmup.start();
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs the command and returns its exit code; never calls System.exit (tests call this). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        try {
            if (!args.isEmpty()) {
                for (Subcommand s : Subcommand.all()) {
                    if (s.name().equals(args.get(0))) {
                        return s.run(args.subList(1, args.size()), out, err);
                    }
                }
            }
            return new ProbeCommand().run(args, out, err);
        } catch (UsageException e) {
            // One line whatever the message quotes: a path or an argument may hold a newline or ESC.
            err.println("flushcheck: " + Escape.of(e.getMessage()) + HINT);
            return ExitCodes.USAGE;
        } catch (InvalidPathException e) {
            // A path Java made itself (the working directory, java.io.tmpdir) that the locale cannot represent.
            err.println("flushcheck: " + Escape.of(BadPathException.unrepresentable(e.getInput(), e.getReason())) + HINT);
            return ExitCodes.USAGE;
        } catch (RuntimeException | LinkageError e) {
            err.println("flushcheck: internal error: " + Escape.of(e.toString()));
            return ExitCodes.INTERNAL;
        }
    }
}

package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.probe.ProbeCommand;
import io.flushcheck.text.Escape;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.util.Arrays;
import java.util.List;
import org.apiguardian.api.API;

/**
 * {@code java -jar flushcheck.jar [COMMAND] [options]}: dispatches to the path probe (default),
 * or to a named subcommand.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Main {

    private static final String HINT = " (see flushcheck --help)";

    private Main() {
    }

    public static void main(String[] args) {
        Warmup.start(args);
        // Our own stream on descriptor 1, in System.out's encoding, that keeps the reason of a failed write.
        StdoutSink sink = new StdoutSink();
        PrintStream out = new PrintStream(new BufferedOutputStream(sink, 8192), false, stdoutCharset());
        System.exit(run(Arrays.asList(args), out, System.err, sink));
    }

    /** Runs the command and returns its exit code; never calls System.exit (tests call this). */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, out, err, null);
    }

    /**
     * Every command's results go to {@code out}, which never throws: whether they arrived is judged here,
     * once for all commands, after the command is done. Output that could not be written is one line on
     * stderr, and exit 4 where the command would have said 0 or 1 (its results are lost); an error the
     * command reported itself (2, 3) keeps its code.
     */
    private static int run(List<String> args, PrintStream out, PrintStream err, StdoutSink sink) {
        int code = dispatch(args, out, err);
        if (out.checkError()) {
            IOException why = sink == null ? null : sink.failure();
            err.println("flushcheck: could not write the output" + (why == null ? "" : ": " + Escape.of(why.getMessage()))
                    + "; the results are lost");
            return code == ExitCodes.OK || code == ExitCodes.NOT_REAL_FLUSH ? ExitCodes.OUTPUT : code;
        }
        return code;
    }

    private static Charset stdoutCharset() {
        String enc = System.getProperty("sun.stdout.encoding");
        try {
            return enc != null ? Charset.forName(enc) : Charset.defaultCharset();
        } catch (RuntimeException e) {
            return Charset.defaultCharset();
        }
    }

    /** The names of the subcommands {@link CommandLines#commandLine} registers. */
    static final List<String> COMMANDS = List.of("probe", "sqlite", "guests", "powercut", "vm");

    private static int dispatch(List<String> args, PrintStream out, PrintStream err) {
        try {
            ProbeCommand quick = QuickArgs.probe(args);
            if (quick != null) {
                return quick.run(out, err);
            }
            // Only a line QuickArgs does not read pays for picocli's classes and model.
            return CommandLines.run(args, out, err);
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

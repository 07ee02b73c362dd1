package io.flushcheck.cli;

import io.flushcheck.BadPathException;
import io.flushcheck.report.Escape;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.InvalidPathException;
import java.util.Arrays;
import java.util.List;
import java.io.PrintWriter;
import java.io.Writer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

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

    /** The names of the subcommands {@link #commandLine} registers. */
    static final List<String> COMMANDS = List.of("probe", "sqlite", "guests");

    /**
     * The command line: the probe at the top (a path or an option first means the probe), {@code probe}
     * by name, and one subcommand per other job. Standard help and version options on each; no
     * {@code @file} expansion (an argument starting with @ is a path); a repeated option keeps its last value.
     */
    static CommandLine commandLine(PrintStream out) {
        return commandLine(out, true);
    }

    /**
     * As {@link #commandLine(PrintStream)}; without the subcommands when {@code withCommands} is false,
     * which parses a line naming no command and asking no help the same way, about 25 ms sooner in a
     * cold JVM.
     */
    static CommandLine commandLine(PrintStream out, boolean withCommands) {
        CommandLine root = withHelp(new CommandLine(new ProbeCommand()));
        if (withCommands) {
            CommandLine probe = withHelp(new CommandLine(new ProbeCommand()));
            probe.getCommandSpec().name("probe");
            probe.getCommandSpec().usageMessage().description("the verdict and the costs of each directory (the default command)")
                    .footer(ProbeCommand.footer());
            root.addSubcommand("probe", probe);
            root.addSubcommand("sqlite", withHelp(new CommandLine(new SqliteCommand())));
            root.addSubcommand("guests", withHelp(new CommandLine(new GuestsCommand())));
        }
        root.getCommandSpec().usageMessage().footer(ProbeCommand.footer());
        root.setExpandAtFiles(false);
        root.setOverwrittenOptionsAllowed(true);
        root.setOut(new PrintWriter(new PrintStreamWriter(out), true));
        return root;
    }

    /** Whether a line may name a command or ask for the help, which lists the commands. */
    static boolean needsCommands(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (COMMANDS.contains(a) || a.equals("--help") || (a.startsWith("-") && !a.startsWith("--") && a.indexOf('h') > 0)) {
                return true;
            }
        }
        return false;
    }

    private static CommandLine withHelp(CommandLine cl) {
        CommandSpec spec = cl.getCommandSpec();
        spec.mixinStandardHelpOptions(true);
        spec.versionProvider(new Version());
        spec.usageMessage().width(100).abbreviateSynopsis(true);
        return cl;
    }

    private static int dispatch(List<String> args, PrintStream out, PrintStream err) {
        try {
            ProbeCommand quick = QuickArgs.probe(args);
            if (quick != null) {
                return quick.run(out, err);
            }
            CommandLine cl = commandLine(out, needsCommands(args));
            ParseResult parsed;
            try {
                parsed = cl.parseArgs(args.toArray(new String[0]));
            } catch (ParameterException e) {
                throw new UsageException(Usage.message(e));
            }
            if (CommandLine.printHelpIfRequested(parsed)) {
                return ExitCodes.OK;
            }
            if (parsed.hasSubcommand() && !parsed.matchedArgs().isEmpty()) {
                // picocli would run the command and drop what came before its name.
                String name = parsed.subcommand().commandSpec().name();
                throw new UsageException("'" + name + "' after " + String.join(" ", parsed.originalArgs()
                        .subList(0, parsed.originalArgs().indexOf(name))) + ": the command's name comes first ("
                        + "flushcheck " + name + " [options]); a path named " + name + " goes after --");
            }
            List<CommandLine> chain = parsed.asCommandLineList();
            Job job = chain.get(chain.size() - 1).getCommand();
            return job.run(out, err);
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

    /** Help and version text into {@code out}, in its encoding, so that its write errors are judged like the results'. */
    private static final class PrintStreamWriter extends Writer {
        private final PrintStream out;

        PrintStreamWriter(PrintStream out) {
            this.out = out;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            out.print(new String(chars, offset, length));
        }

        @Override
        public void flush() {
            out.flush();
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}

package io.flushcheck.cli;

import io.flushcheck.cli.common.ExitCodes;
import io.flushcheck.cli.common.Job;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.cli.guests.GuestsCommand;
import io.flushcheck.cli.powercut.PowerCutCommand;
import io.flushcheck.cli.powercut.PowerCutDamageCommand;
import io.flushcheck.cli.powercut.PowerCutMergeCommand;
import io.flushcheck.cli.powercut.PowerCutPostgresCommand;
import io.flushcheck.cli.powercut.PowerCutSqliteCommand;
import io.flushcheck.cli.powercut.PowerCutSubcommands;
import io.flushcheck.cli.probe.ProbeCommand;
import io.flushcheck.cli.sqlite.SqliteCommand;
import io.flushcheck.cli.vm.VmCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The command line as picocli reads it. Apart from {@link Main}, so that a line {@link QuickArgs} reads
 * loads none of picocli's classes.
 */
final class CommandLines {

    private CommandLines() {
    }

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
            CommandLine powercut = withHelp(new CommandLine(new PowerCutCommand()));
            powercut.addSubcommand("explore", withHelp(PowerCutSubcommands.explore()));
            powercut.addSubcommand("replay", withHelp(PowerCutSubcommands.replay()));
            powercut.addSubcommand("sqlite", withHelp(new CommandLine(new PowerCutSqliteCommand())));
            powercut.addSubcommand("postgres", withHelp(new CommandLine(new PowerCutPostgresCommand())));
            powercut.addSubcommand("merge", withHelp(new CommandLine(new PowerCutMergeCommand())));
            powercut.addSubcommand("damage", withHelp(new CommandLine(new PowerCutDamageCommand())));
            root.addSubcommand("powercut", powercut);
            root.addSubcommand("vm", withHelp(new CommandLine(new VmCommand())));
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
            if (Main.COMMANDS.contains(a) || a.equals("--help") || (a.startsWith("-") && !a.startsWith("--") && a.indexOf('h') > 0)) {
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

    /** Parses {@code args} with picocli and runs the job they name. */
    static int run(List<String> args, PrintStream out, PrintStream err) throws UsageException {
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
        // picocli would run the command and drop what came before its name, at each level.
        String qualified = "";
        List<String> original = parsed.originalArgs();
        int from = 0; // where this level's own arguments start: after its name
        for (ParseResult level = parsed; level.hasSubcommand(); level = level.subcommand()) {
            String name = level.subcommand().commandSpec().name();
            int at = from + original.subList(from, original.size()).indexOf(name);
            if (!level.matchedArgs().isEmpty()) {
                List<String> before = original.subList(from, at);
                throw new UsageException("'" + name + "' after " + String.join(" ", before) + ": the command's name comes"
                        + " first (flushcheck " + qualified + name + " [options]); "
                        + (qualified.isEmpty() ? "a path" : "an argument") + " named " + name + " goes after --");
            }
            qualified += name + " ";
            from = at + 1;
        }
        List<CommandLine> chain = parsed.asCommandLineList();
        Job job = chain.get(chain.size() - 1).getCommand();
        return job.run(out, err);
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

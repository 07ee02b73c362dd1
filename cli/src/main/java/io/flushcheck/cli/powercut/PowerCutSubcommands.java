package io.flushcheck.cli.powercut;

import java.nio.file.Path;
import java.util.List;
import org.apiguardian.api.API;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code flushcheck powercut explore} and {@code flushcheck powercut replay DIR}: {@link PowerCutCommand} with
 * {@code --explore} or {@code --replay DIR} given, and only the options that mode takes, so that each runs, checks
 * and words its errors exactly as the option spelling does, which keeps working.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PowerCutSubcommands {

    private PowerCutSubcommands() {
    }

    /** {@code powercut explore [options] --verify 'VERIFY {dir} {acks}' -- COMMAND {dir}}. */
    public static CommandLine explore() {
        PowerCutCommand command = new PowerCutCommand();
        command.explore = true;
        CommandLine cl = new CommandLine(command);
        CommandSpec spec = cl.getCommandSpec();
        spec.name("explore");
        for (OptionSpec o : List.copyOf(spec.options())) {
            String name = o.longestName();
            if (name.equals("--explore") || name.equals("--replay") || name.equals("--shard")
                    || PowerCutUsage.NOT_EXPLORING.contains(name)) {
                spec.remove(o);
            }
        }
        spec.usageMessage().customSynopsis("flushcheck powercut explore [--max-states N] [--draw N] [--damage-blocks N"
                        + " [--kinds bit-rot,zeroed] [--block-bytes B]] [--seed S] [--workers N] [--record DIR] [options]"
                        + " --verify 'VERIFY {dir} {acks}' -- COMMAND {dir}")
                .description("check every crash state of one run of a program",
                        "",
                        "Runs COMMAND once, the power on, while the disk records every write and flush, then checks",
                        "every crash state of that run with VERIFY, as flushcheck powercut --help tells under explore;",
                        "flushcheck powercut --explore is the same command in its older spelling.");
        return cl;
    }

    /** {@code powercut replay DIR [options] --verify 'VERIFY {dir} {acks}'}. */
    public static CommandLine replay() {
        PowerCutCommand command = new PowerCutCommand();
        command.replayFromParameter = true;
        CommandLine cl = new CommandLine(command);
        CommandSpec spec = cl.getCommandSpec();
        spec.name("replay");
        for (OptionSpec o : List.copyOf(spec.options())) {
            if (o.longestName().equals("--replay") || !PowerCutUsage.REPLAY_OPTIONS.contains(o.longestName())) {
                spec.remove(o);
            }
        }
        for (PositionalParamSpec p : List.copyOf(spec.positionalParameters())) {
            spec.remove(p);
        }
        // Converted as --replay's value is; PowerCutCommand reads it from here.
        spec.addPositional(PositionalParamSpec.builder().paramLabel("DIR").type(Path.class).arity("1").required(true)
                .description("the directory of a recording explore --record kept").build());
        spec.usageMessage().customSynopsis("flushcheck powercut replay DIR [--max-states N] [--draw N [--seed S]]"
                        + " [--workers N] [--shard I/N] [--json] --verify 'VERIFY {dir} {acks}'")
                .description("check the crash states of a kept recording",
                        "",
                        "Checks the crash states of the recording explore --record kept in DIR, on this machine or",
                        "another; no COMMAND runs. flushcheck powercut --help tells the rest under replay;",
                        "flushcheck powercut --replay DIR is the same command in its older spelling.");
        return cl;
    }
}

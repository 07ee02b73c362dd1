package io.flushcheck.cli;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** picocli's parse errors in the command's words: the one line after {@code flushcheck: }. */
final class Usage {

    private static final Pattern FLAG_WITH_VALUE =
            Pattern.compile("option '(-[^']*)' should be specified without '(.*)' parameter", Pattern.DOTALL);

    private Usage() {
    }

    static String message(ParameterException e) {
        String prefix = prefix(e.getCommandLine());
        if (e.getCause() instanceof TypeConversionException t) {
            return t.getMessage(); // Values' converters say the option, the value and what is allowed
        }
        Matcher valued = FLAG_WITH_VALUE.matcher(String.valueOf(e.getMessage()));
        if (valued.matches()) {
            // A flag given a value (--json=false): flags take none, in every command. picocli says so in
            // these words and names no ArgSpec; CommandTests.flagsTakeNoValueInAnyCommand holds them.
            return prefix + valued.group(1) + " takes no value: '" + valued.group(1) + "=" + valued.group(2) + "'";
        }
        if (e instanceof CommandLine.MissingParameterException m) {
            List<ArgSpec> missing = m.getMissing();
            if (!missing.isEmpty() && missing.get(0) instanceof OptionSpec o) {
                return prefix + o.longestName() + " needs a value";
            }
        }
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            int eq = first.indexOf('=');
            String name = eq > 0 ? first.substring(0, eq) : first;
            OptionSpec flag = e.getCommandLine().getCommandSpec().findOption(name);
            if (eq > 0 && flag != null && flag.arity().max() == 0) {
                return prefix + name + " takes no value: '" + first + "'";
            }
            if (first.startsWith("-") && first.length() > 1) {
                if (takesCommandAfterDashes(e.getCommandLine()) && !u.getCommandLine().getParseResult().originalArgs().contains("--")) {
                    // flushcheck powercut --verify V sh -c '...': the command's own options met flushcheck's parser
                    return prefix + "unknown option " + first + ": put the command after -- (flushcheck "
                            + prefix.replace(": ", "") + " [options] -- COMMAND {dir})";
                }
                return prefix + "unknown option " + first;
            }
            return prefix + "unexpected argument '" + first + "'";
        }
        return prefix + e.getMessage();
    }

    /** Whether the command takes a program and its arguments after {@code --}, as {@code powercut} does. */
    private static boolean takesCommandAfterDashes(CommandLine cl) {
        return cl != null && cl.getCommandSpec().positionalParameters().stream().anyMatch(p -> p.paramLabel().equals("COMMAND"));
    }

    /** {@code sqlite: } for a subcommand's error, {@code powercut sqlite: } for a nested one's, nothing for the probe's. */
    private static String prefix(CommandLine cl) {
        if (cl == null || cl.getParent() == null) {
            return "";
        }
        String names = cl.getCommandName();
        for (CommandLine up = cl.getParent(); up.getParent() != null; up = up.getParent()) {
            names = up.getCommandName() + " " + names;
        }
        return names + ": ";
    }
}

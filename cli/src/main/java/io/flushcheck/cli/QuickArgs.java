package io.flushcheck.cli;

import io.flushcheck.cli.probe.ProbeCommand;
import java.util.List;

/**
 * The probe's command line when it holds only paths and flags ({@code flushcheck --json /dev/shm}),
 * read the way picocli reads it, without picocli's cold start: building picocli's model costs a cold
 * JVM about 100 ms, more than the whole run of a check that the storage facts decide. Any other
 * argument (an option with a value, {@code --help}, {@code --}, a subcommand's name, anything starting
 * with {@code -} or {@code @}, an empty argument) returns null, and picocli parses the whole line.
 * {@code QuickArgsTests} holds this to picocli's result for the same arguments.
 */
final class QuickArgs {

    private QuickArgs() {
    }

    /** The probe with its flags and paths set, or null when picocli must parse {@code args}. */
    static ProbeCommand probe(List<String> args) {
        ProbeCommand p = new ProbeCommand();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--json" -> p.output.json = true;
                case "-q", "--quiet" -> p.output.quiet = true;
                case "--histogram" -> p.histogram = true;
                case "--per-round-counters" -> p.perRound = true;
                case "--always-probe" -> p.alwaysProbe = true;
                case "--require-real-flush" -> p.require = true;
                default -> {
                    if (a.isEmpty() || a.charAt(0) == '-' || a.charAt(0) == '@' || Main.COMMANDS.contains(a)) {
                        return null;
                    }
                    p.pathArgs.add(a);
                }
            }
        }
        return p;
    }
}

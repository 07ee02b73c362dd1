package io.flushcheck.cli;

import java.io.PrintStream;
import java.util.List;

/** A named command after {@code flushcheck}: {@code flushcheck sqlite ...}, {@code flushcheck guests ...}. */
interface Subcommand {

    String name();

    /** One line for the top-level help. */
    String summary();

    int run(List<String> args, PrintStream out, PrintStream err) throws UsageException;

    static List<Subcommand> all() {
        return List.of(new SqliteCommand(), new GuestsCommand());
    }
}

package io.flushcheck.cli.common;

import org.apiguardian.api.API;
import picocli.CommandLine.Option;

/** {@code --json} and {@code --quiet}: how every command prints. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OutputOptions {

    @Option(names = "--json", arity = "0", description = "print the results as JSON on stdout (progress stays on stderr)")
    public boolean json;

    @Option(names = {"-q", "--quiet"}, arity = "0", description = "no progress on stderr")
    public boolean quiet;
}

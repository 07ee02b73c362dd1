package io.flushcheck.cli.common;

import java.io.PrintStream;
import org.apiguardian.api.API;

/**
 * One of the command's jobs, as picocli has filled in its options: {@code probe} (the default),
 * {@code sqlite}, {@code guests}. A new job (a power cut, a VM) is one more class registered in
 * {@code CommandLines.commandLine}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface Job {

    /** Runs the job; its results go to {@code out}, progress and errors to {@code err}. */
    int run(PrintStream out, PrintStream err) throws UsageException;
}

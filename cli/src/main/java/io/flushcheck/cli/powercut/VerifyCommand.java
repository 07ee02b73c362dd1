package io.flushcheck.cli.powercut;

import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.LoggedWorld;
import io.flushcheck.powercut.ProcessWorld;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * The user's VERIFY run on one crash state: by {@code sh -c}, in a world of its own, with {@code {dir}} naming the
 * mounted state and {@code {acks}} a file of the lines acknowledged at or before the state's flushes; exit 0
 * passes. Shared by {@code --explore} and {@code --replay}, which check the same states the same way. Each run is a
 * process of its own with a file of its own, so that several states are verified at once; the count of states
 * checked is told to {@code done} one at a time.
 */
final class VerifyCommand implements CrashStates.Verification {

    static final String ACKS = "{acks}";

    private final String verify;
    /** Where the {@code {acks}} files are written: a work directory removed after the check, after a kill too. */
    private final Path work;
    private final double timeoutSeconds;
    private final IntConsumer done;
    /** States checked so far; guarded by this. */
    private int count;

    /** {@code done} hears each state checked, with the count so far. */
    VerifyCommand(String verify, Path work, double timeoutSeconds, IntConsumer done) {
        this.verify = verify;
        this.work = work;
        this.timeoutSeconds = timeoutSeconds;
        this.done = done;
    }

    @Override
    public void verify(Path survivor, List<String> mustSurvive) throws IOException, InterruptedException {
        try {
            verifyOne(survivor, mustSurvive);
        } finally {
            synchronized (this) {
                done.accept(++count);
            }
        }
    }

    private void verifyOne(Path survivor, List<String> mustSurvive) throws IOException, InterruptedException {
        Path acks = Files.createTempFile(work, "state-acks-", ".txt");
        try {
            Files.write(acks, mustSurvive);
            String line = verify.replace(ProgramCuts.DIR, ProgramCuts.shellWord(survivor.toString()))
                    .replace(ACKS, ProgramCuts.shellWord(acks.toString()));
            // A world of its own: what the verify leaves running ends with it, before the state is unmounted.
            try (LoggedWorld v = LoggedWorld.start(List.of("sh", "-c", line), ProcessWorld::start)) {
                if (!v.waitFor(timeoutSeconds)) {
                    v.kill();
                    throw new AssertionError("the verify was still running after "
                            + String.format(Locale.ROOT, "%.0f s", timeoutSeconds));
                }
                if (v.exitCode() != 0) {
                    String tail = v.tail(ProgramStates.TAIL_LINES);
                    throw new AssertionError("exit " + v.exitCode() + (tail.isEmpty() ? "" : ": " + tail));
                }
            }
        } finally {
            Files.deleteIfExists(acks);
        }
    }
}

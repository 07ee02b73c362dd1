package io.flushcheck.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command for a test, failing with its output when it fails. */
public final class Shell {

    private Shell() {
    }

    /** Runs the command (stderr merged), returns its output; throws with the output on a non-zero exit. */
    public static String run(String... command) {
        Result r = exec(List.of(command));
        if (r.exit() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + r.exit() + ": " + r.output());
        }
        return r.output();
    }

    /** Runs the command, never throws for a non-zero exit. */
    public static Result exec(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command + " timed out");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    public record Result(int exit, String output) {
    }
}

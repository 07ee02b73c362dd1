package io.flushcheck.powercut.internal.sys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;

/** Runs the system tools a simulated disk needs (losetup, mkfs, mount), bounded in time. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Commands {

    private static final long TIMEOUT_SECONDS = 60;

    private Commands() {
    }

    /** Runs {@code command}; returns its output, or throws with the output when it fails or hangs. */
    public static String run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed (exit " + p.exitValue() + ")"
                    + (output.isEmpty() ? "" : ": " + output));
        }
        return output;
    }

    /** Runs {@code command} and ignores its failure: for teardown, where each step must still try. */
    public static void attempt(List<String> command) {
        try {
            run(command.toArray(new String[0]));
        } catch (IOException e) {
            // teardown goes on with the next step
        }
    }
}

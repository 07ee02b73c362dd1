package io.flushcheck.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The command run in this JVM through {@link Main#run}, its output captured as UTF-8. */
public final class InProcess {

    private InProcess() {
    }

    /** An exit code and what the command printed. */
    public record Run(int exit, String out, String err) {
    }

    public static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = Main.run(List.of(args), o, e);
        }
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}

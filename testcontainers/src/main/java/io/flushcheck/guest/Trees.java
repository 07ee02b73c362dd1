package io.flushcheck.guest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes what a run made on this machine: a directory and everything in it, and says what stays. */
final class Trees {

    private Trees() {
    }

    static void delete(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort; what stays is named in the next line
                }
            });
        } catch (IOException ignored) {
            // fall through
        }
        if (Files.exists(root)) {
            System.err.println("flushcheck guest: could not remove " + root);
        }
    }
}

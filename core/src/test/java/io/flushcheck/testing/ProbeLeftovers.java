package io.flushcheck.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Probe files ({@code .flushcheck-*.probe}) found in a directory. */
public final class ProbeLeftovers {

    private ProbeLeftovers() {
    }

    public static List<String> in(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(".flushcheck-") && n.endsWith(".probe"))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

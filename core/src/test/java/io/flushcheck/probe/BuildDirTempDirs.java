package io.flushcheck.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/** Temp dirs under {@code target/}, on the checkout's disk rather than a possibly-tmpfs /tmp. */
final class BuildDirTempDirs implements TempDirFactory {

    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext context) throws IOException {
        Path base = Files.createDirectories(Path.of("target", "probe-tmp").toAbsolutePath());
        return Files.createTempDirectory(base, "probe");
    }
}

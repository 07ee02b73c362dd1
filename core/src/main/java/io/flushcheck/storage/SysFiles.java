package io.flushcheck.storage;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Reads small kernel files (/proc, /sys), once or twice per round in the probe loop. Plain
 * {@link FileInputStream} rather than {@code Files.readString}: the cold path (docs/architecture.md).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SysFiles {

    private SysFiles() {
    }

    public static String read(Path file) throws IOException {
        try (FileInputStream in = new FileInputStream(file.toString())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package io.flushcheck.storage;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Reads small kernel files (/proc, /sys). Plain {@link FileInputStream} rather than
 * {@code Files.readString}: on a cold JVM the latter loads enough classes to cost ~10 ms, which is
 * the whole budget of a tmpfs verdict, and in the probe loop it is read once or twice per round.
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

package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * One file replaced whole, value after value, the way programs save a config: written to a temporary name,
 * renamed over the file, the directory synced; with the temporary file synced before the rename, as POSIX
 * asks, or not.
 */
final class ReplacedFile {

    private ReplacedFile() {
    }

    static void replace(Path dir, String name, String value, boolean syncData) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
            if (syncData) {
                ch.force(true);
            }
        }
        Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /**
     * The file holds a whole value, the last of {@code mustSurvive} or one put after it (values are
     * {@code "value N"}, N rising); with nothing to survive, it may be missing.
     */
    static void verify(Path file, List<String> mustSurvive) throws IOException {
        if (!Files.exists(file)) {
            if (!mustSurvive.isEmpty()) {
                throw new AssertionError(file.getFileName() + " missing, " + mustSurvive.get(mustSurvive.size() - 1)
                        + " acknowledged");
            }
            return;
        }
        String value = Files.readString(file);
        if (!value.matches("value \\d+")) {
            throw new AssertionError(file.getFileName() + " holds \"" + value.replace("\0", "\\0") + "\", no whole value");
        }
        if (!mustSurvive.isEmpty() && number(value) < number(mustSurvive.get(mustSurvive.size() - 1))) {
            throw new AssertionError(file.getFileName() + " holds \"" + value + "\", older than "
                    + mustSurvive.get(mustSurvive.size() - 1) + " acknowledged");
        }
    }

    private static int number(String value) {
        return Integer.parseInt(value.substring("value ".length()));
    }
}

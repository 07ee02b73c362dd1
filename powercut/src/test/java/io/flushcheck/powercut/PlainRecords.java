package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A store of records a line each, appended and synced before each is acknowledged, with no checksums: reading returns
 * the lines as the bytes are (ISO 8859-1, so no byte fails to decode), whatever changed at rest.
 */
final class PlainRecords {

    private PlainRecords() {
    }

    /** Appends and syncs {@code record}: on return it is acknowledged. */
    static void append(Path file, String record) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap((record + "\n").getBytes(StandardCharsets.ISO_8859_1)));
            ch.force(true);
        }
    }

    /** The records of {@code file}, as its bytes read. */
    static List<String> read(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
    }
}

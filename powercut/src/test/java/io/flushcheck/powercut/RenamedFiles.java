package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/** A store of one file a record, put as POSIX asks: written to a temporary name, synced, renamed, its directory synced. */
final class RenamedFiles {

    private RenamedFiles() {
    }

    static void put(Path dir, String key, String value) throws IOException {
        put(dir, key, value, true);
    }

    /** As {@link #put(Path, String, String)}; without {@code syncDirectory} the rename may not be durable. */
    static void put(Path dir, String key, String value, boolean syncDirectory) throws IOException {
        Path tmp = dir.resolve(key + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(key), StandardCopyOption.ATOMIC_MOVE);
        if (!syncDirectory) {
            return;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    /** Every key in {@code mustSurvive} is there with its value, and every record there has its whole value. */
    static void verify(Path dir, List<String> mustSurvive) throws IOException {
        List<String> wrong = new ArrayList<>();
        for (String key : mustSurvive) {
            Path p = dir.resolve(key);
            if (!Files.exists(p)) {
                wrong.add(key + " missing");
            }
        }
        if (Files.isDirectory(dir)) {
            try (var files = Files.list(dir)) {
                for (Path p : files.filter(f -> !f.getFileName().toString().endsWith(".tmp")).toList()) {
                    String key = p.getFileName().toString();
                    String value = Files.readString(p);
                    if (!value.equals("value " + key.substring(1))) {
                        wrong.add(key + " holds \"" + value.replace("\0", "\\0") + "\"");
                    }
                }
            }
        }
        if (!wrong.isEmpty()) {
            throw new AssertionError(String.join(", ", wrong));
        }
    }
}

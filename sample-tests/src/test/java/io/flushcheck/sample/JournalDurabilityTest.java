package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flushcheck.jupiter.RequiresRealFlush;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's durability claims. A claim about fsync tested on tmpfs or under eatmydata proves
 * nothing, so the class requires a real flush where {@code @TempDir} lives.
 */
@RequiresRealFlush
class JournalDurabilityTest {

    @TempDir
    Path dir;

    @Test
    void appendedRecordsAreReadBackAfterReopen() throws IOException {
        Path file = dir.resolve("journal");
        try (Journal j = Journal.open(file)) {
            j.append("first".getBytes(StandardCharsets.UTF_8));
            j.append("second".getBytes(StandardCharsets.UTF_8));
        }
        try (Journal j = Journal.open(file)) {
            List<byte[]> records = j.readAll();
            assertEquals(2, records.size());
            assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), records.get(1));
        }
    }

    @Test
    void aTornTailIsCutOffOnOpen() throws IOException {
        Path file = dir.resolve("journal");
        long intact;
        try (Journal j = Journal.open(file)) {
            j.append("kept".getBytes(StandardCharsets.UTF_8));
            intact = j.size();
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(new byte[] {0, 0, 0, 100, 1, 2, 3}));
        }
        try (Journal j = Journal.open(file)) {
            assertEquals(intact, j.size());
            assertEquals(1, j.readAll().size());
        }
    }

    @DurabilityTest
    void everyAppendIsItsOwnDurablePoint() throws IOException {
        try (Journal j = Journal.open(dir.resolve("journal"))) {
            for (int i = 0; i < 100; i++) {
                j.append(("record " + i).getBytes(StandardCharsets.UTF_8));
            }
            assertEquals(100, j.readAll().size());
        }
    }
}

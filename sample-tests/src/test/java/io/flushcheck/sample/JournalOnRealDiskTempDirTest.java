package io.flushcheck.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flushcheck.jupiter.RealDiskTempDirFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other way to be safe: instead of failing where /tmp is tmpfs, put the temp dir on a disk.
 * This test passes on a laptop whose /tmp is tmpfs, because the factory moves it to target/.
 */
class JournalOnRealDiskTempDirTest {

    // tag::real-disk-temp-dir[]
    @Test
    void journalInATempDirThatReallyFlushes(@TempDir(factory = RealDiskTempDirFactory.class) Path dir) throws IOException {
        try (Journal j = Journal.open(dir.resolve("journal"))) {
            j.append("x".getBytes(StandardCharsets.UTF_8));
            assertEquals(1, j.readAll().size());
        }
    }
    // end::real-disk-temp-dir[]
}

package io.flushcheck.powercut.internal.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file's pages are kept between its own changes ({@link FileData#pages}); what else moves its changes (the log of
 * unsynced bytes compacted under it) makes them again, so that a state written out reads the file's bytes where they
 * are now.
 */
class FilePagesKeptTests {

    @TempDir
    Path tmp;

    @Test
    void aStateWrittenAfterTheLogIsCompactedReadsAnUnsyncedFilesBytes() throws Exception {
        FileTree t = new FileTree(0, 0, Files.createDirectories(tmp.resolve("store")), Long.MAX_VALUE, true);
        try {
            long b = t.create(FileTree.ROOT, "b", false, 0644, 0, 0).id();
            ByteBuffer mib = ByteBuffer.allocate(1 << 20);
            t.write(b, 0, mib.clear()); // a's bytes go into the log after these
            long a = t.create(FileTree.ROOT, "a", false, 0644, 0, 0).id();
            byte[] written = "a's bytes, never synced\n".repeat(200).getBytes(StandardCharsets.UTF_8);
            t.write(a, 0, ByteBuffer.wrap(written));
            t.statePicks(); // a's pages made now
            // Past the 64 MiB the log keeps while a's bytes hold it: a later write moves them into a new log.
            for (int i = 0; i < 70; i++) {
                t.write(b, 0, mib.clear());
                t.sync(b);
            }
            List<StatePick> picks = t.statePicks();
            Path to = Files.createDirectories(tmp.resolve("state"));
            t.save(picks.get(picks.size() - 1), to); // every operation kept
            assertThat(Files.readString(to.resolve("a"))).isEqualTo(new String(written, StandardCharsets.UTF_8));
        } finally {
            t.close();
        }
    }
}

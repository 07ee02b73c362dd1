package io.flushcheck.powercut.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store file keeps what was written where it was written, reads zeros elsewhere, and maps its chunks for
 * random access: the kernel reads nothing ahead when a page of a chunk faults (smaps' VmFlags "rr").
 */
class StoreFileTests {

    @Test
    void bytesWrittenReadBackAndTheRestReadAsZeros(@TempDir Path dir) {
        try (StoreFile f = StoreFile.in(dir)) {
            f.write(4096, ByteBuffer.wrap(new byte[] {1, 2, 3}));
            ByteBuffer out = ByteBuffer.allocate(8);
            f.read(4094, out);
            assertThat(out.array()).containsExactly(0, 0, 1, 2, 3, 0, 0, 0);
            f.clear();
            ByteBuffer again = ByteBuffer.allocate(3);
            f.read(4096, again);
            assertThat(again.array()).containsExactly(0, 0, 0);
        }
    }

    @Test
    void itsChunksAreMappedForRandomAccessSoAFaultReadsNothingAhead(@TempDir Path dir) throws IOException {
        try (StoreFile f = StoreFile.in(dir)) {
            f.write(0, ByteBuffer.wrap(new byte[] {1}));
            List<String> flags = mappingFlags(dir);
            assertThat(flags).as("the store file's mappings in /proc/self/smaps").hasSize(1);
            assertThat(flags.get(0).split(" ")).as("VmFlags of its chunk").contains("rr");
        }
    }

    /** The VmFlags of each mapping of a file (deleted or not) in {@code dir}, from this process's smaps. */
    private static List<String> mappingFlags(Path dir) throws IOException {
        List<String> flags = new ArrayList<>();
        boolean inside = false;
        for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                inside = line.contains(" " + dir.toRealPath() + "/");
            } else if (inside && line.startsWith("VmFlags:")) {
                flags.add(line.substring("VmFlags:".length()).trim());
            }
        }
        return flags;
    }
}

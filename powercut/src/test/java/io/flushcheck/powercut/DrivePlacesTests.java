package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A lying write is planned on a whole block or not at all: bytes with no place of their own refuse the block. */
class DrivePlacesTests {

    @TempDir
    Path dir;

    @Test
    void aBlockPartlyPreallocatedIsRefusedWithTheReason() throws Exception {
        String fs = Files.getFileStore(dir).type();
        Requirements.require(fs.equals("ext4") || fs.equals("xfs"), "a temporary directory on ext4 or xfs (FIEMAP with"
                + " unwritten extents), not " + fs);
        Path data = dir.resolve("data");
        try (FileChannel c = FileChannel.open(data, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            c.write(java.nio.ByteBuffer.wrap(new byte[4096]));
            c.force(true);
        }
        Process p = new ProcessBuilder("fallocate", "-o", "4096", "-l", "4096", data.toString()).inheritIO().start();
        assertThat(p.waitFor()).isZero();
        DrivePlaces places = DrivePlaces.of(dir);
        assertThat(places.plan(new DamagedBlock(BlockDamage.LOST_WRITE, "data", 0, 4096, 0), fs).faults()).hasSize(1);
        assertThatThrownBy(() -> places.plan(new DamagedBlock(BlockDamage.LOST_WRITE, "data", 0, 8192, 0), fs))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("data bytes 0+8192 had no bytes of the file's own on the drive")
                .hasMessageContaining("preallocated");
    }
}

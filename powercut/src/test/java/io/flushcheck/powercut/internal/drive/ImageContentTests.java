package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImageContentTests {

    @TempDir
    Path tmp;

    @Test
    void aSparseCopyHasItsOriginalsDigestAndHolesCountAsZeros() throws IOException {
        Path image = tmp.resolve("image");
        try (FileChannel c = FileChannel.open(image, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.allocate(3 << 20)); // written zeros, no holes
            c.write(ByteBuffer.wrap("superblock".getBytes()), 1024);
            c.write(ByteBuffer.wrap("data".getBytes()), (2 << 20) + 5);
        }
        Path copy = tmp.resolve("copy");
        String copied = SparseCopy.copy(image, copy);

        assertThat(copied).hasSize(64).isEqualTo(ImageContent.sha256(image)).isEqualTo(ImageContent.sha256(copy));
        assertThat(Files.mismatch(image, copy)).isEqualTo(-1);
        assertThat(allocated(copy)).as("the copy's blocks").isLessThan(allocated(image) / 4);
    }

    @Test
    void aByteMovedOrChangedOrAnImageGrownChangesTheDigest() throws IOException {
        String base = ImageContent.sha256(image("a", 4096, (byte) 1, 1 << 20));
        assertThat(ImageContent.sha256(image("b", 4096, (byte) 2, 1 << 20))).isNotEqualTo(base);
        assertThat(ImageContent.sha256(image("c", 4097, (byte) 1, 1 << 20))).isNotEqualTo(base);
        assertThat(ImageContent.sha256(image("d", 4096 + (64 << 10), (byte) 1, 1 << 20))).isNotEqualTo(base);
        assertThat(ImageContent.sha256(image("e", 4096, (byte) 1, 2 << 20))).isNotEqualTo(base);
        assertThat(ImageContent.sha256(image("f", 4096, (byte) 1, 1 << 20))).isEqualTo(base);
    }

    /** A sparse image of {@code size} bytes holding one byte at {@code at}. */
    private Path image(String name, long at, byte value, long size) throws IOException {
        Path p = tmp.resolve(name);
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[] {value}), at);
            c.write(ByteBuffer.allocate(1), size - 1);
        }
        return p;
    }

    /** The 512-byte blocks the file takes on its disk. */
    private static long allocated(Path p) throws IOException {
        Process stat = new ProcessBuilder("stat", "-c", "%b", p.toString()).start();
        return Long.parseLong(new String(stat.getInputStream().readAllBytes()).trim());
    }
}

package io.flushcheck.powercut.internal.drive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
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

    /**
     * A 64 GiB sparse image holding a little data, some of it across a block's end, some written zeros, a byte at its
     * very end: its digest is the definition's (its size, then each block that holds a byte other than zero with its
     * offset), computed here from what was written, not by reading the image.
     */
    @Test
    void aLargeSparseImageDigestsAsTheDefinitionSaysFromWhatWasWritten() throws Exception {
        long size = 64L << 30;
        int block = ImageContent.BLOCK;
        long across = (32L << 30) - 100; // 200 bytes of 7, across the block ending at 32 GiB
        Path p = tmp.resolve("large");
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap("superblock".getBytes()), 1024);
            byte[] sevens = new byte[200];
            Arrays.fill(sevens, (byte) 7);
            c.write(ByteBuffer.wrap(sevens), across);
            c.write(ByteBuffer.allocate(block), 40L << 30); // written zeros: digested as a hole
            c.write(ByteBuffer.wrap(new byte[] {1}), size - 1);
        }
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        d.update(ByteBuffer.allocate(8).putLong(size).flip());
        byte[] first = new byte[block];
        System.arraycopy("superblock".getBytes(), 0, first, 1024, 10);
        digestBlock(d, 0, first);
        byte[] before = new byte[block];
        Arrays.fill(before, block - 100, block, (byte) 7);
        digestBlock(d, (32L << 30) - block, before);
        byte[] after = new byte[block];
        Arrays.fill(after, 0, 100, (byte) 7);
        digestBlock(d, 32L << 30, after);
        byte[] last = new byte[block];
        last[block - 1] = 1;
        digestBlock(d, size - block, last);

        assertThat(ImageContent.sha256(p)).isEqualTo(HexFormat.of().formatHex(d.digest()));
    }

    private static void digestBlock(MessageDigest d, long offset, byte[] bytes) {
        d.update(ByteBuffer.allocate(8).putLong(offset).flip());
        d.update(bytes);
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

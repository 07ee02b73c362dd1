package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.model.Sha256;
import io.flushcheck.powercut.internal.model.StoreFile;
import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.apiguardian.api.API;

/**
 * What a drive's image holds, read in blocks of 64 KiB, of which only those holding a byte other than zero
 * matter: an image is mostly never-written space. Its digest is the SHA-256 of its size and of each such block
 * with its offset, so that a hole and written zeros digest alike, and a sparse copy has its original's digest.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ImageContent {

    static final int BLOCK = 64 << 10;

    /** Receives the blocks of an image that are not all zeros. */
    @FunctionalInterface
    interface Blocks {
        void block(long offset, ByteBuffer bytes) throws IOException;
    }

    private ImageContent() {
    }

    /** The SHA-256 of {@code image}'s content, as hex: its size and its blocks that are not all zeros. */
    public static String sha256(Path image) throws IOException {
        try (RegularFile in = RegularFile.open(image)) {
            return sha256(in);
        }
    }

    /**
     * The SHA-256 of {@code image}'s content, as {@link #sha256(Path)}: only its data is read, its holes skipped
     * ({@code SEEK_DATA}), so that a large sparse image takes the time of its data, not of its size.
     */
    public static String sha256(RegularFile image) throws IOException {
        Digest d = new Digest(image.size());
        nonZeroBlocks(image, d);
        return d.hex();
    }

    /**
     * Hands {@code to} each block of {@code in} that holds a byte other than zero, in order. Blocks wholly in holes
     * are all zeros and not read: the blocks read are those the data touches, each once.
     */
    static void nonZeroBlocks(RegularFile in, Blocks to) throws IOException {
        FileChannel channel = in.channel();
        ByteBuffer buffer = ByteBuffer.allocate(BLOCK);
        long size = in.size();
        long at = 0; // the first block not looked at yet
        while (at < size) {
            long data = in.nextData(at);
            if (data >= size) {
                break;
            }
            long hole = Math.max(in.nextHole(data), data + 1);
            for (long block = Math.max(at, data / BLOCK * BLOCK); block < hole && block < size; block += BLOCK) {
                buffer.clear().limit((int) Math.min(BLOCK, size - block));
                while (buffer.hasRemaining() && channel.read(buffer, block + buffer.position()) > 0) {
                    // a short read leaves the rest to read again
                }
                buffer.flip();
                if (!StoreFile.isZeros(buffer)) {
                    to.block(block, buffer);
                }
                at = block + BLOCK;
            }
        }
    }

    /** The digest {@link #sha256} gives, fed block by block. */
    static final class Digest implements Blocks {
        private final MessageDigest sha = Sha256.digest();
        private final ByteBuffer number = ByteBuffer.allocate(Long.BYTES);

        Digest(long size) {
            update(size);
        }

        @Override
        public void block(long offset, ByteBuffer bytes) {
            update(offset);
            sha.update(bytes.duplicate());
        }

        private void update(long value) {
            number.clear();
            number.putLong(value).flip();
            sha.update(number);
        }

        String hex() {
            return Sha256.hex(sha);
        }
    }
}

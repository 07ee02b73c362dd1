package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.model.Sha256;
import io.flushcheck.powercut.internal.model.StoreFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
        try (FileChannel in = FileChannel.open(image, StandardOpenOption.READ)) {
            Digest d = new Digest(in.size());
            nonZeroBlocks(in, d);
            return d.hex();
        }
    }

    /** Hands {@code to} each block of {@code in} that holds a byte other than zero, in order. */
    static void nonZeroBlocks(FileChannel in, Blocks to) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BLOCK);
        long size = in.size();
        for (long at = 0; at < size; at += BLOCK) {
            buffer.clear();
            while (buffer.hasRemaining() && in.read(buffer, at + buffer.position()) > 0) {
                // a short read leaves the rest to read again
            }
            buffer.flip();
            if (!StoreFile.isZeros(buffer)) {
                to.block(at, buffer);
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

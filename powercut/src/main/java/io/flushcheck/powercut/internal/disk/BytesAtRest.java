package io.flushcheck.powercut.internal.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apiguardian.api.API;

/**
 * Changes the bytes of a file that holds data at rest (a survivor's file, a survivor's drive image) in place: a bit
 * flipped, a range zeroed. Written through and forced; a symbolic link is not followed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BytesAtRest {

    private BytesAtRest() {
    }

    /** Flips bit {@code bit} (0 to 7) of byte {@code offset} of {@code file}. */
    public static void flip(Path file, long offset, int bit) throws IOException {
        if (bit < 0 || bit > 7) {
            throw new IllegalArgumentException("a byte has bits 0 to 7, not " + bit);
        }
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            if (c.read(one, offset) != 1) {
                throw new IOException(file + " has no byte " + offset + " to flip a bit of");
            }
            one.put(0, (byte) (one.get(0) ^ (1 << bit)));
            c.write(one.clear(), offset);
            c.force(false);
        }
    }

    /** Zeros {@code length} bytes of {@code file} from {@code from}. */
    public static void zero(Path file, long from, long length) throws IOException {
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            if (from + length > c.size()) {
                throw new IOException(file + " has " + c.size() + " bytes, not " + from + "+" + length + " to zero");
            }
            ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(length, 1 << 16));
            for (long at = from; at < from + length; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), from + length - at));
                while (zeros.hasRemaining()) {
                    at += c.write(zeros, at);
                }
            }
            c.force(false);
        }
    }
}

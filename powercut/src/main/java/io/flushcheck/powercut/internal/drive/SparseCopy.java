package io.flushcheck.powercut.internal.drive;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apiguardian.api.API;

/**
 * Copies a drive's image leaving holes where it holds only zeros: an image is mostly never-written space, and a
 * copy that wrote it out would take the drive's whole size on the disk it is saved to.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SparseCopy {

    private static final int BLOCK = 64 << 10;

    private SparseCopy() {
    }

    /** Copies {@code from} to {@code to}, a new file, of the same size; the runs of zeros left unwritten. */
    public static void copy(Path from, Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.allocate(BLOCK);
            long size = in.size();
            for (long at = 0; at < size; at += BLOCK) {
                buffer.clear();
                while (buffer.hasRemaining() && in.read(buffer, at + buffer.position()) > 0) {
                    // a short read leaves the rest to read again
                }
                buffer.flip();
                if (!zeros(buffer)) {
                    while (buffer.hasRemaining()) {
                        out.write(buffer, at + buffer.position());
                    }
                }
            }
            // Setting the size past the last write leaves the end a hole too.
            if (out.size() < size) {
                out.write(ByteBuffer.allocate(1), size - 1);
            }
        }
    }

    private static boolean zeros(ByteBuffer b) {
        for (int i = b.position(); i < b.limit(); i++) {
            if (b.get(i) != 0) {
                return false;
            }
        }
        return true;
    }
}

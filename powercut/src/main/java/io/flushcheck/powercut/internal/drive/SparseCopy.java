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

    private SparseCopy() {
    }

    /**
     * Copies {@code from} to {@code to}, a new file, of the same size; the runs of zeros left unwritten.
     *
     * @return the copy's {@link ImageContent#sha256}, taken as it was read
     */
    public static String copy(Path from, Path to) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long size = in.size();
            ImageContent.Digest digest = new ImageContent.Digest(size);
            ImageContent.nonZeroBlocks(in, (at, bytes) -> {
                digest.block(at, bytes);
                while (bytes.hasRemaining()) {
                    out.write(bytes, at + bytes.position());
                }
            });
            // Setting the size past the last write leaves the end a hole too.
            if (out.size() < size) {
                out.write(ByteBuffer.allocate(1), size - 1);
            }
            return digest.hex();
        }
    }
}

package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.sys.RegularFile;
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
        try (RegularFile in = RegularFile.open(from);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            return copy(in, out);
        }
    }

    /**
     * Copies {@code in} to {@code out}, an empty file, as {@link #copy(Path, Path)}: only the data of {@code in} is
     * read, its holes skipped.
     */
    public static String copy(RegularFile in, FileChannel out) throws IOException {
        long size = in.size();
        ImageContent.Digest digest = new ImageContent.Digest(size);
        ImageContent.nonZeroBlocks(in, (at, bytes) -> {
            digest.block(at, bytes);
            ByteBuffer b = bytes.duplicate();
            while (b.hasRemaining()) {
                out.write(b, at + b.position());
            }
        });
        // Setting the size past the last write leaves the end a hole too.
        if (out.size() < size) {
            out.write(ByteBuffer.allocate(1), size - 1);
        }
        return digest.hex();
    }
}

package io.flushcheck.cli.powercut;

import io.flushcheck.storage.OpenedFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A document a command reads that anyone may have written, such as a shard's report: opened once without
 * following a link and without waiting (a FIFO is never waited on), refused unless the opened file is a regular
 * one of at most {@link #MAX_BYTES}, which is checked before a byte is read.
 */
final class DocumentFile {

    /** The largest document read: a shard's report of the most states a bound and a draw give fits in it. */
    static final long MAX_BYTES = 256L << 20;

    /** How {@link #MAX_BYTES} is said. */
    static final String MAX_SHOWN = "256 MiB";

    private DocumentFile() {
    }

    /**
     * The whole file.
     *
     * @throws IllegalArgumentException naming the file and why it is not read: a link, not a regular file, too
     *                                  large, or a failure to read it
     */
    static byte[] read(Path file) {
        try (OpenedFile opened = OpenedFile.open(file)) {
            FileChannel ch = opened.channel();
            long size = ch.size();
            tooLarge(file, size);
            // A file that grows after the check is read no further than the cap and then refused.
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size + 1, MAX_BYTES + 1));
            while (ch.read(buf) > 0) {
                if (!buf.hasRemaining()) {
                    tooLarge(file, buf.capacity());
                    buf = ByteBuffer.allocate((int) Math.min(2L * buf.capacity(), MAX_BYTES + 1)).put(buf.flip());
                }
            }
            byte[] bytes = new byte[buf.position()];
            buf.flip().get(bytes);
            return bytes;
        } catch (OpenedFile.NotRegularException e) {
            throw new IllegalArgumentException(file + switch (e.kind()) {
                case MISSING -> ": cannot open it: " + e.reason();
                case SYMBOLIC_LINK -> " is a symbolic link: documents are read from the file itself, never through a link";
                case DIRECTORY -> " is a directory, not a regular file";
                case OTHER -> " is a FIFO, a device or a socket, not a regular file";
            });
        } catch (OpenedFile.OpenFailedException e) {
            throw new IllegalArgumentException(file + ": cannot open it: " + e.reason());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read it: " + e.getMessage());
        }
    }

    private static void tooLarge(Path file, long size) {
        if (size > MAX_BYTES) {
            throw new IllegalArgumentException(file + " is " + size + " bytes, more than the " + MAX_SHOWN
                    + " a document may be");
        }
    }
}

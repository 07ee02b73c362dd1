package io.flushcheck.powercut.internal.sys;

import io.flushcheck.storage.OpenedFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A regular file opened once, for reading, without following a link: a symbolic link, a FIFO, a device or a
 * directory in its place is refused, and a FIFO without blocking. What is read from it afterwards is that file's,
 * whatever its name is changed to meanwhile: reading it again by name could read another file. Its
 * {@link #channel()} reads by position; {@link #nextData} and {@link #nextHole} find its written parts.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RegularFile implements AutoCloseable {

    /** A file that is missing, or not a regular file of its own (a link, FIFO, device or directory). */
    public static final class NotRegularException extends IOException {

        private static final long serialVersionUID = 1L;

        NotRegularException(String message) {
            super(message);
        }
    }

    private final OpenedFile opened;

    private RegularFile(OpenedFile opened) {
        this.opened = opened;
    }

    /**
     * Opens {@code path}, which must be a regular file itself, not a link to one ({@link OpenedFile}).
     *
     * @throws NotRegularException when it is missing or not a regular file: the message says which
     * @throws IOException         when it cannot be opened for another reason (permissions, I/O)
     */
    public static RegularFile open(Path path) throws IOException {
        try {
            return new RegularFile(OpenedFile.open(path));
        } catch (OpenedFile.NotRegularException e) {
            throw new NotRegularException(e.getMessage());
        }
    }

    /**
     * Where the file opened is named by its descriptor ({@code /proc/self/fd/N}): its attributes read there are its
     * own, whatever its name names by now; its name when it was opened by name.
     */
    public Path held() {
        return opened.fd() < 0 ? opened.path() : Path.of("/proc/self/fd/" + opened.fd());
    }

    /** The name it was opened by, to name it in messages. */
    public Path path() {
        return opened.path();
    }

    /** Reads the file opened: read by position ({@link FileChannel#read(java.nio.ByteBuffer, long)}). */
    public FileChannel channel() {
        return opened.channel();
    }

    public long size() throws IOException {
        return opened.channel().size();
    }

    /** The first byte at or after {@code from} that is data, not a hole; the size when there is none. */
    public long nextData(long from) throws IOException {
        return seek(from, Libc.SEEK_DATA);
    }

    /** The first byte at or after {@code from} that is in a hole (the end of the file counts as one). */
    public long nextHole(long from) throws IOException {
        return seek(from, Libc.SEEK_HOLE);
    }

    private long seek(long from, int whence) throws IOException {
        long size = size();
        if (from >= size) {
            return size;
        }
        long at = Libc.C.lseek(opened.fd(), from, whence);
        if (at < 0) {
            int errno = Libc.errno();
            if (errno == Libc.ENXIO) {
                return size;
            }
            throw new IOException("cannot look for data in " + opened.path() + ": " + Libc.C.strerror(errno));
        }
        return Math.min(at, size);
    }

    /**
     * Reads the file from its start, buffered, by position: the channel's own position is left alone, and closing the
     * stream leaves the file open. {@link Reader#position()} says how far it has read.
     */
    public Reader reader() {
        return new Reader(opened.channel());
    }

    /** {@link #reader()}'s stream. */
    public static final class Reader extends InputStream {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(1 << 20).flip();
        /** The file's byte at the buffer's start. */
        private long at;

        private Reader(FileChannel channel) {
            this.channel = channel;
        }

        /** The bytes read so far: the next byte read is the file's at this offset. */
        public long position() {
            return at + buffer.position();
        }

        @Override
        public int read() throws IOException {
            return fill() ? buffer.get() & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, buffer.remaining());
            buffer.get(b, off, n);
            return n;
        }

        private boolean fill() throws IOException {
            if (buffer.hasRemaining()) {
                return true;
            }
            at += buffer.position();
            buffer.clear();
            int n = channel.read(buffer, at);
            buffer.flip();
            return n > 0;
        }
    }

    @Override
    public void close() throws IOException {
        opened.close();
    }
}

package io.flushcheck.sample;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * An append-only journal that promises: once {@link #append(byte[])} returns, the record survives a
 * power cut. Each record is {@code length, crc32c, payload}, the checksum over the length and the payload (so that
 * zeroed bytes do not read as empty records); on open, a torn tail (a record whose length or checksum does not hold)
 * is cut off, so a crash mid-append loses only that record. A record damaged after it was synced is cut off with
 * everything after it, as a torn tail is: a single copy cannot tell the two apart, and the journal loses those
 * records without an error, though it never returns a wrong one.
 *
 * <p>The promise rests on {@link FileChannel#force(boolean)} reaching a device, which is exactly
 * what its tests check with flushcheck.
 */
public final class Journal implements Closeable {

    private static final int HEADER = 8;

    private final FileChannel channel;
    private long size;

    private Journal(FileChannel channel, long size) {
        this.channel = channel;
        this.size = size;
    }

    /**
     * Opens (or creates) a journal file, cutting off a torn tail. A journal it creates has its name made
     * durable before it returns: POSIX makes a new name durable only when its directory is synced (ext4
     * also does it with the file's own fsync, but not every filesystem does).
     */
    public static Journal open(Path file) throws IOException {
        boolean created = !Files.exists(file);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (created) {
            Path dir = file.toAbsolutePath().getParent();
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            }
        }
        long valid = scan(ch, null);
        if (valid < ch.size()) {
            ch.truncate(valid);
            ch.force(true);
        }
        return new Journal(ch, valid);
    }

    /** Appends one record and returns only when it is durable. */
    public void append(byte[] payload) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length);
        buf.putInt(payload.length).putInt(checksum(payload.length, payload)).put(payload).flip();
        while (buf.hasRemaining()) {
            size += channel.write(buf, size);
        }
        // force(false) is fdatasync: the size change still commits the metadata that reading needs.
        channel.force(false);
    }

    /** Every intact record, in order. */
    public List<byte[]> readAll() throws IOException {
        List<byte[]> out = new ArrayList<>();
        scan(channel, out);
        return out;
    }

    /** Bytes of intact records. */
    public long size() {
        return size;
    }

    private static long scan(FileChannel ch, List<byte[]> out) throws IOException {
        long pos = 0;
        long end = ch.size();
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        while (pos + HEADER <= end) {
            header.clear();
            ch.read(header, pos);
            header.flip();
            int len = header.getInt();
            int crc = header.getInt();
            if (len < 0 || pos + HEADER + len > end) {
                break;
            }
            ByteBuffer payload = ByteBuffer.allocate(len);
            while (payload.hasRemaining() && ch.read(payload, pos + HEADER + payload.position()) > 0) {
                // read until full
            }
            if (checksum(len, payload.array()) != crc) {
                break;
            }
            if (out != null) {
                out.add(payload.array());
            }
            pos += HEADER + len;
        }
        return pos;
    }

    /** CRC32C of the length, big-endian, and the payload. */
    private static int checksum(int length, byte[] payload) {
        CRC32C c = new CRC32C();
        c.update(ByteBuffer.allocate(4).putInt(0, length));
        c.update(payload);
        return (int) c.getValue();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

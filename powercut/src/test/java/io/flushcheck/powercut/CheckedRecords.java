package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A store of records, each appended and synced before it is acknowledged, with a CRC-32 over each record's length and
 * bytes: {@code [crc 4][length 4][bytes]}. Reading verifies every record, and one whose checksum does not match, or
 * whose length runs past the file, is reported by its number and offset: the store detects what changed at rest.
 */
final class CheckedRecords {

    private CheckedRecords() {
    }

    /** Appends and syncs {@code record}: on return it is acknowledged. */
    static void append(Path file, String record) throws IOException {
        byte[] bytes = record.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + bytes.length);
        b.putInt(0).putInt(bytes.length).put(bytes);
        b.putInt(0, crc(b, bytes.length));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ch.write(b.flip());
            ch.force(true);
        }
    }

    /** The CRC-32 of a record's length and bytes, {@code b} holding the record from 0. */
    private static int crc(ByteBuffer b, int length) {
        CRC32 crc = new CRC32();
        crc.update(b.array(), b.arrayOffset() + 4, 4 + length);
        return (int) crc.getValue();
    }

    /**
     * The records of {@code file}, each verified.
     *
     * @throws IOException naming the first record that does not verify
     */
    static List<String> read(Path file) throws IOException {
        ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(file));
        List<String> records = new ArrayList<>();
        while (all.hasRemaining()) {
            int at = all.position();
            if (all.remaining() < 8) {
                throw new IOException("record " + records.size() + " at byte " + at + " is cut short");
            }
            int crc = all.getInt(at);
            int length = all.getInt(at + 4);
            if (length < 0 || length > all.remaining() - 8) {
                throw new IOException("record " + records.size() + " at byte " + at + ": its length " + length
                        + " runs past the end");
            }
            if (crc(all.slice(at, 8 + length), length) != crc) {
                throw new IOException("record " + records.size() + " at byte " + at + ": checksum mismatch");
            }
            records.add(new String(all.array(), at + 8, length, StandardCharsets.UTF_8));
            all.position(at + 8 + length);
        }
        return records;
    }
}

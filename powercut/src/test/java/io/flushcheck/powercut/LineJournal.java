package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A journal of text records, a line each, appended and fsynced one by one; with {@code checked} each line carries
 * the CRC32 of its record and of its position, and a reader refuses a line whose checksum does not match, as a
 * store with per-record checksums does; without, the reader returns whatever lines it finds.
 */
final class LineJournal {

    private LineJournal() {
    }

    /** Appends {@code records}, each synced (the directory too, after the first), noting each as it is acknowledged. */
    static void append(Path file, List<String> records, boolean checked, AcknowledgedRecords acknowledged) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            int n = 0;
            for (String r : records) {
                String line = checked ? r + "|" + crc(n, r) : r;
                ByteBuffer b = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                ch.force(false);
                if (n++ == 0) {
                    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                        dir.force(true);
                    }
                }
                acknowledged.add(r);
            }
        }
    }

    /** The records, in order; with {@code checked}, an IOException naming the first line whose checksum is wrong. */
    static List<String> read(Path file, boolean checked) throws IOException {
        return records(file, new String(Files.readAllBytes(file), StandardCharsets.UTF_8), checked);
    }

    /**
     * As {@link #read}, read with O_DIRECT: each read goes to the drive, around the page cache, once. A filesystem that
     * refuses O_DIRECT (tmpfs) is read through the page cache.
     */
    static List<String> readDirect(Path file, boolean checked) throws IOException {
        int block = (int) Files.getFileStore(file).getBlockSize();
        FileChannel direct;
        try {
            direct = FileChannel.open(file, StandardOpenOption.READ, com.sun.nio.file.ExtendedOpenOption.DIRECT);
        } catch (java.nio.file.FileSystemException e) {
            return read(file, checked);
        }
        try (FileChannel ch = direct) {
            long size = ch.size();
            ByteBuffer b = ByteBuffer.allocateDirect((int) (size + 2L * block)).alignedSlice(block);
            b.limit((int) ((size + block - 1) / block * block));
            while (b.hasRemaining() && ch.read(b) > 0 && b.position() % block == 0) {
                // a short read ends at the file's end: an unaligned position is refused
            }
            byte[] bytes = new byte[(int) Math.min(size, b.position())];
            b.flip().get(bytes);
            return records(file, new String(bytes, StandardCharsets.UTF_8), checked);
        }
    }

    private static List<String> records(Path file, String text, boolean checked) throws IOException {
        List<String> records = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            if (n == lines.length - 1 && line.isEmpty()) {
                break; // after the last newline
            }
            if (!checked) {
                records.add(line);
                continue;
            }
            int bar = line.lastIndexOf('|');
            if (bar < 0 || !line.substring(bar + 1).equals(crc(n, line.substring(0, bar)))) {
                throw new IOException("record " + n + " of " + file + " fails its checksum: " + line);
            }
            records.add(line.substring(0, bar));
        }
        return records;
    }

    private static String crc(int position, String record) {
        CRC32 c = new CRC32();
        c.update(ByteBuffer.allocate(4).putInt(0, position));
        c.update(record.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().toHexDigits((int) c.getValue());
    }
}

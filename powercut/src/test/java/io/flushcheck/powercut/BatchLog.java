package io.flushcheck.powercut;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A log of records written in batches with O_DIRECT, so each 4 KiB block reaches the drive as one write as
 * it is issued: batch b takes {@code 2 * BATCH + 1} blocks, each record a header block (its length) and a
 * body block, then a commit block (the batch's count) last. No checksum: a reader trusts a header and a
 * commit it finds. Careful, it syncs the records before the commit; careless, it writes the commit in the
 * same epoch, and only a drive that writes the commit and a header but not the body after it (order kept
 * for every other write) lets a reader take a body of zeros for a record.
 */
final class BatchLog {

    static final int BLOCK = 4096;
    static final int BATCH = 8;
    static final int BATCHES = 3;
    private static final int BLOCKS_PER_BATCH = 2 * BATCH + 1;
    static final int BLOCKS = BATCHES * BLOCKS_PER_BATCH;

    private BatchLog() {
    }

    /** The log file, its blocks written as zeros and synced with its name: later writes overwrite in place. */
    static void create(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(BLOCKS * BLOCK));
            ch.force(true);
        }
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    static String record(int batch, int i) {
        return "record " + batch + "." + i;
    }

    /** Every record {@link #appendAll} writes. */
    static List<String> everyRecord() {
        List<String> all = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            for (int i = 0; i < BATCH; i++) {
                all.add(record(b, i));
            }
        }
        return all;
    }

    /** Writes the batches, acknowledging each batch's records once it is synced; {@code careful}: records synced before the commit. */
    static void appendAll(Path file, boolean careful, AcknowledgedRecords acknowledged) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            ByteBuffer block = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK);
            for (int b = 0; b < BATCHES; b++) {
                long first = (long) b * BLOCKS_PER_BATCH;
                for (int i = 0; i < BATCH; i++) {
                    byte[] body = record(b, i).getBytes(StandardCharsets.UTF_8);
                    write(ch, block, (first + 2 * i) * BLOCK, ByteBuffer.allocate(4).putInt(body.length).array());
                    write(ch, block, (first + 2 * i + 1) * BLOCK, body);
                }
                if (careful) {
                    ch.force(false);
                }
                write(ch, block, (first + 2 * BATCH) * BLOCK, ByteBuffer.allocate(4).putInt(BATCH).array());
                ch.force(false);
                for (int i = 0; i < BATCH; i++) {
                    acknowledged.add(record(b, i));
                }
            }
        }
    }

    /** Writes the log's first block as it is, twice, then its second, with no sync: three writes, two of one image. */
    static void rewriteFirstBlockTwice(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            ByteBuffer block = ByteBuffer.allocateDirect(2 * BLOCK).alignedSlice(BLOCK);
            for (long at : new long[] {0, 0, BLOCK}) {
                block.clear();
                while (block.hasRemaining() && ch.read(block, at + block.position()) >= 0) {
                    // read the block
                }
                block.flip();
                while (block.hasRemaining()) {
                    ch.write(block, at + block.position());
                }
            }
        }
    }

    private static void write(FileChannel ch, ByteBuffer block, long at, byte[] bytes) throws IOException {
        block.clear();
        block.put(bytes);
        while (block.hasRemaining()) {
            block.put((byte) 0);
        }
        block.flip();
        while (block.hasRemaining()) {
            ch.write(block, at + block.position());
        }
    }

    /** The records a reader finds: each committed batch whose headers are all there, in order. */
    static List<String> recover(Path file) throws IOException {
        List<String> records = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            for (int b = 0; b < BATCHES; b++) {
                long first = (long) b * BLOCKS_PER_BATCH;
                int count = read(ch, (first + 2 * BATCH) * BLOCK).getInt();
                if (count == 0) {
                    break;
                }
                List<String> batch = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    int length = read(ch, (first + 2 * i) * BLOCK).getInt();
                    if (length <= 0 || length > BLOCK) {
                        batch = null; // a header missing: the batch was torn, and is not taken
                        break;
                    }
                    byte[] body = new byte[length];
                    read(ch, (first + 2 * i + 1) * BLOCK).get(body);
                    batch.add(new String(body, StandardCharsets.UTF_8));
                }
                if (batch == null) {
                    break;
                }
                records.addAll(batch);
            }
        }
        return records;
    }

    private static ByteBuffer read(FileChannel ch, long at) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(BLOCK);
        while (b.hasRemaining() && ch.read(b, at + b.position()) >= 0) {
            // read the block
        }
        return b.flip();
    }

    /**
     * Checks what a reader recovered from {@code log}: every record in {@code mustSurvive}, and no record
     * the workload did not write.
     */
    static void verify(Path log, List<String> mustSurvive) throws IOException {
        List<String> found = recover(log);
        List<String> written = everyRecord();
        for (String r : found) {
            if (!written.contains(r)) {
                throw new AssertionError("the reader recovered a record nobody wrote: \"" + r.replace("\0", "\\0") + "\"");
            }
        }
        List<String> lost = new ArrayList<>(mustSurvive);
        lost.removeAll(found);
        if (!lost.isEmpty()) {
            throw new AssertionError("acknowledged records lost: " + lost);
        }
    }
}

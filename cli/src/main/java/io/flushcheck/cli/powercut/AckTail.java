package io.flushcheck.cli.powercut;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Follows the file a program writes its acknowledgements to ({@code FLUSHCHECK_ACKS}), a line each, and hands
 * each complete line on as it appears, with the byte its line ends at. The file is read every millisecond, so a line
 * may be seen only after the program's next sync began: which flushes it counts from is settled by the drive, which
 * reads the file's size as each flush completes ({@link io.flushcheck.powercut.AcknowledgedRecords#watchFile}), and
 * the line's end places it between two of those readings. What is seen here serves what cannot wait for that: a line
 * seen once the power has gone is not counted.
 */
final class AckTail implements AutoCloseable {

    private static final long POLL_MILLIS = 1;

    private final FileChannel file;
    private final Line lines;
    private final Thread thread;
    private final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private volatile boolean stopping;
    private volatile IOException failed;
    private long read;

    /** Hears each line, and the byte of the file it ends at (after its newline). */
    @FunctionalInterface
    interface Line {
        void accept(String line, long end);
    }

    private AckTail(FileChannel file, Line lines) {
        this.file = file;
        this.lines = lines;
        this.thread = new Thread(this::follow, "flushcheck-acks");
        this.thread.setDaemon(true);
    }

    /** Follows {@code path} (which exists), handing each line to {@code lines} on a thread of its own. */
    static AckTail start(Path path, Line lines) throws IOException {
        AckTail tail = new AckTail(FileChannel.open(path, StandardOpenOption.READ), lines);
        tail.thread.start();
        return tail;
    }

    private void follow() {
        try {
            while (!stopping) {
                readNew();
                Thread.sleep(POLL_MILLIS);
            }
            readNew(); // what was written before the stop
            if (partial.size() > 0) {
                lines.accept(partial.toString(StandardCharsets.UTF_8), read); // the program ended without the newline
            }
        } catch (IOException e) {
            failed = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void readNew() throws IOException {
        while (true) {
            chunk.clear();
            int n = file.read(chunk, read);
            if (n <= 0) {
                return;
            }
            for (int i = 0; i < n; i++) {
                byte b = chunk.get(i);
                if (b == '\n') {
                    lines.accept(partial.toString(StandardCharsets.UTF_8), read + i + 1);
                    partial.reset();
                } else {
                    partial.write(b);
                }
            }
            read += n;
        }
    }

    /** Reads what is left, stops, and fails when the file could not be read. */
    @Override
    public void close() throws IOException {
        stopping = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the acknowledgements", e);
        } finally {
            file.close();
        }
        if (failed != null) {
            throw new UncheckedIOException("the acknowledgements could not be read", failed);
        }
    }
}

package io.flushcheck.cli.powercut;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Follows the file a program writes its acknowledgements to ({@code FLUSHCHECK_ACKS}), a line each, and hands
 * each complete line on as it appears. The file is read every millisecond: a line is counted from the moment it
 * is seen, never earlier than the program wrote it, so an acknowledgement may count from a later flush than the
 * one it followed, and never from an earlier one.
 */
final class AckTail implements AutoCloseable {

    private static final long POLL_MILLIS = 1;

    private final FileChannel file;
    private final Consumer<String> lines;
    private final Thread thread;
    private final ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private volatile boolean stopping;
    private volatile IOException failed;
    private long read;

    private AckTail(FileChannel file, Consumer<String> lines) {
        this.file = file;
        this.lines = lines;
        this.thread = new Thread(this::follow, "flushcheck-acks");
        this.thread.setDaemon(true);
    }

    /** Follows {@code path} (which exists), handing each line to {@code lines} on a thread of its own. */
    static AckTail start(Path path, Consumer<String> lines) throws IOException {
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
                lines.accept(partial.toString(StandardCharsets.UTF_8)); // the program ended without the newline
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
            read += n;
            for (int i = 0; i < n; i++) {
                byte b = chunk.get(i);
                if (b == '\n') {
                    lines.accept(partial.toString(StandardCharsets.UTF_8));
                    partial.reset();
                } else {
                    partial.write(b);
                }
            }
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

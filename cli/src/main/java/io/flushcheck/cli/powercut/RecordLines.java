package io.flushcheck.cli.powercut;

import io.flushcheck.storage.OpenedFile;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The records a program wrote to a file flushcheck named for it ({@code $FLUSHCHECK_ACKS}, {@code $FLUSHCHECK_READ}),
 * a line each, the last one counted without its newline too. The file is the program's: it is read only when it is a
 * regular file, opened once by {@link OpenedFile} (a symbolic link in its place not followed, a FIFO not waited on),
 * at most {@link #MAX_BYTES}, after every process of the program's world has ended, so that nothing swaps it meanwhile.
 */
final class RecordLines {

    /** The most bytes read from one such file. */
    static final long MAX_BYTES = 64L << 20;

    private RecordLines() {
    }

    /**
     * The lines of {@code file}, or null when there is no such file; {@code what} names it in the refusal of anything
     * else ({@code VERIFY's $FLUSHCHECK_READ}).
     */
    static List<String> read(Path file, String what) throws IOException {
        byte[] bytes;
        try (OpenedFile opened = OpenedFile.open(file)) {
            FileChannel ch = opened.channel();
            if (ch.size() > MAX_BYTES) {
                throw new IOException(what + " (" + file + ") holds " + ch.size() + " bytes, more than the " + MAX_BYTES
                        + " read: write one line per record");
            }
            bytes = Channels.newInputStream(ch).readNBytes((int) MAX_BYTES + 1);
        } catch (OpenedFile.NotRegularException e) {
            if (e.kind() == OpenedFile.Kind.MISSING) {
                return null;
            }
            throw new IOException(what + " (" + file + ") is not a regular file (" + e.getMessage() + "): write the"
                    + " records to it, a line each");
        }
        if (bytes.length > MAX_BYTES) {
            throw new IOException(what + " (" + file + ") grew past the " + MAX_BYTES + " bytes read");
        }
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                lines.add(new String(bytes, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < bytes.length) {
            lines.add(new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8));
        }
        return lines;
    }
}

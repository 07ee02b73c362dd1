package io.flushcheck.powercut;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A journal of records, each appended and synced before it is acknowledged, with the two characters a failed sync
 * tells apart: one that stops and reports (the append throws, and every later one), and one that logs the error and
 * acknowledges all the same (as PostgreSQL did before 2018).
 */
final class SyncedJournal {

    private final Path file;
    private final boolean carriesOn;
    private final boolean asserts;
    private IOException stoppedBy;

    private SyncedJournal(Path file, boolean carriesOn, boolean asserts) {
        this.file = file;
        this.carriesOn = carriesOn;
        this.asserts = asserts;
    }

    /** A new journal at {@code file}, its name synced. */
    static SyncedJournal create(Path file, boolean carriesOn) throws IOException {
        return create(file, carriesOn, false);
    }

    /**
     * As {@link #create(Path, boolean)}; with {@code asserts}, a failed sync throws an {@link AssertionError} from the
     * append, as a library's own assertion on its error path does (Lucene's {@code IOUtils.fsync} under {@code -ea}).
     */
    static SyncedJournal create(Path file, boolean carriesOn, boolean asserts) throws IOException {
        Files.createFile(file);
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
        return new SyncedJournal(file, carriesOn, asserts);
    }

    /** Appends and syncs {@code record}: on return it is acknowledged; a journal that stops throws instead. */
    void append(String record) throws IOException {
        if (stoppedBy != null) {
            throw new IOException("the journal stopped at a failed sync", stoppedBy);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap((record + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        } catch (IOException e) {
            if (asserts) {
                throw new AssertionError("journal: the sync of " + record + " failed", e);
            }
            if (!carriesOn) {
                stoppedBy = e;
                throw e;
            }
            System.err.println("journal: " + record + ": " + e.getMessage() + "; carrying on");
        }
    }

    /** The records in a journal file; none when it is missing. */
    static List<String> read(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }
}

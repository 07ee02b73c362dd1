package io.flushcheck.sample;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A file replaced whole, the classic way: write a temporary file, fsync it, rename it over the old one,
 * and fsync the directory, which is what makes the rename itself durable (rename(2) and fsync(2):
 * a file's fsync does not cover the directory entry that names it).
 */
public class SnapshotFile {

    private final Path file;

    public SnapshotFile(Path file) {
        this.file = file;
    }

    /** Replaces the content; returns once the new content survives a power cut. */
    public void write(String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDirectory();
    }

    /** The content, or null when there is none. */
    public String read() throws IOException {
        return Files.exists(file) ? Files.readString(file) : null;
    }

    protected void syncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    /**
     * The same, less the directory's fsync: it passes every test that does not cut the power, and loses
     * acknowledged writes when the power goes. Kept to show that a power-cut test catches it.
     */
    public static final class WithoutDirectorySync extends SnapshotFile {

        public WithoutDirectorySync(Path file) {
            super(file);
        }

        @Override
        protected void syncDirectory() {
            // the bug: the rename is not yet durable when write returns
        }
    }
}

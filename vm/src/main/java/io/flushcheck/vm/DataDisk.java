package io.flushcheck.vm;

import io.flushcheck.probe.OwnFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;

/**
 * The guest's data disk: a sparse raw file of flushcheck's own in a host directory (named and swept like the
 * probe's files), with a fresh ext4 on it, attached to a loop device made for the run. Closing it detaches
 * the device and removes the file.
 */
final class DataDisk implements AutoCloseable {

    private final Path file;
    private final LoopDevice loop;

    private DataDisk(Path file, LoopDevice loop) {
        this.file = file;
        this.loop = loop;
    }

    /** Room for the preallocated overwrite file and an append file of every round, with ext4's own. */
    static long sizeFor(int rounds, int blockSize) {
        return (64L << 20) + 2L * Math.min((long) rounds * blockSize, 1L << 30);
    }

    static DataDisk create(Path dir, long bytes) {
        Path file = OwnFiles.createFile(dir, "vm-disk");
        LoopDevice loop = null;
        try {
            try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                f.setLength(bytes);
            }
            // Inode tables and journal written now, not by the guest's ext4lazyinit while the probe counts.
            Exec.run(List.of(Exec.require("mkfs.ext4", "e2fsprogs").toString(), "-q", "-F", "-E",
                    "lazy_itable_init=0,lazy_journal_init=0", file.toString()));
            loop = LoopDevice.attach(file);
            return new DataDisk(file, loop);
        } catch (IOException | RuntimeException e) {
            OwnFiles.remove(file);
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("cannot make the guest's disk " + file + ": " + e.getMessage(), e);
        }
    }

    Path file() {
        return file;
    }

    LoopDevice loop() {
        return loop;
    }

    @Override
    public void close() {
        try {
            loop.close();
        } finally {
            OwnFiles.remove(file);
        }
    }
}

package io.flushcheck.powercut.internal.disk;

import io.flushcheck.powercut.internal.sys.RegularFile;
import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * The files a recording's crash states are made from, each opened once and held open: the block model's base image
 * and log, the file model's log alone. What is read from them is what was checked (a loaded recording's hashes),
 * whatever their names are given to meanwhile. Closed with the crash states that hold them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RecordingFiles implements AutoCloseable {

    private final RegularFile base;
    private final RegularFile log;

    public RecordingFiles(RegularFile base, RegularFile log) {
        this.base = base;
        this.log = log;
    }

    /** Opens {@code log}, and {@code base} unless it is null (the file model's). */
    public static RecordingFiles open(Path base, Path log) throws IOException {
        RegularFile l = RegularFile.open(log);
        try {
            return new RecordingFiles(base == null ? null : RegularFile.open(base), l);
        } catch (IOException | RuntimeException e) {
            l.close();
            throw e;
        }
    }

    /** The drive's image before the workload; null on the file model. */
    public RegularFile base() {
        return base;
    }

    /** The drive's log of writes and flushes, or the file tree's of operations. */
    public RegularFile log() {
        return log;
    }

    @Override
    public void close() throws IOException {
        try {
            log.close();
        } finally {
            if (base != null) {
                base.close();
            }
        }
    }
}

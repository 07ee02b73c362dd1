package io.flushcheck.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * The directory a probe writes in, opened once. On Linux it is held by a descriptor and every probe file is
 * created and removed relative to it (openat, unlinkat): a rename, a replacement or a mount over its name after
 * the opening cannot send the syncs to another directory, and {@link #mountId()} says which mount the directory
 * the probe writes in is really on, to be held against the mount its storage facts were judged on. Elsewhere
 * (macOS) the files are made by path.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ProbeDirectory implements AutoCloseable {

    private final SyncCalls calls;
    private final Path path;
    private final int fd;

    private ProbeDirectory(SyncCalls calls, Path path, int fd) {
        this.calls = calls;
        this.path = path;
        this.fd = fd;
    }

    /**
     * Opens {@code dir}.
     *
     * @throws NativeCallException when it cannot be opened (gone, not a directory, no permission)
     */
    static ProbeDirectory open(SyncCalls calls, Path dir) {
        return new ProbeDirectory(calls, dir, calls.openDirectory(dir.toString()));
    }

    /** The directory's name when it was opened: what messages show, and where the files are made without a descriptor. */
    public Path path() {
        return path;
    }

    /** The id of the mount the opened directory is on, as mountinfo numbers it; -1 where it was opened by name only. */
    public long mountId() {
        return fd < 0 ? -1 : calls.mountIdOf(fd);
    }

    /** True when the files are made relative to a descriptor of the directory. */
    boolean held() {
        return fd >= 0;
    }

    /** Creates {@code file} (a name inside {@link #path()}) exclusively, mode 0600, never through a symlink. */
    int create(Path file, boolean dsync) {
        return fd < 0 ? calls.createExclusive(file.toString(), dsync)
                : calls.createExclusiveAt(fd, file.getFileName().toString(), file.toString(), dsync);
    }

    /** Removes {@code file} from the directory opened; false when it was not there. */
    boolean remove(Path file) throws IOException {
        if (fd < 0) {
            return Files.deleteIfExists(file);
        }
        try {
            return calls.unlinkAt(fd, file.getFileName().toString(), file.toString());
        } catch (NativeCallException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (fd >= 0) {
            calls.close(fd);
        }
    }
}

package io.flushcheck.powercut.internal.sys;

import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/** Drops a file's clean pages from the kernel's page cache, so that its next reads go to what holds it. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PageCache {

    private PageCache() {
    }

    /**
     * Drops the clean cached pages of {@code length} bytes of {@code file} from {@code offset} (0: to its end) with
     * {@code posix_fadvise(POSIX_FADV_DONTNEED)}; dirty pages stay, so sync the file first to drop all of them.
     * A symbolic link is not followed: the file is the one named.
     */
    public static void drop(Path file, long offset, long length) throws IOException {
        int fd = Libc.C.open(file.toString(), Libc.O_RDONLY | Libc.O_CLOEXEC | Libc.O_NOFOLLOW | Libc.O_NONBLOCK);
        if (fd < 0) {
            int e = Libc.errno();
            throw new IOException("cannot open " + file + " to drop its cached pages: " + Libc.C.strerror(e));
        }
        try {
            int e = Libc.C.posix_fadvise(fd, offset, length, Libc.POSIX_FADV_DONTNEED);
            if (e != 0) {
                throw new IOException("cannot drop the cached pages of " + file + ": " + Libc.C.strerror(e));
            }
        } finally {
            Libc.C.close(fd);
        }
    }
}

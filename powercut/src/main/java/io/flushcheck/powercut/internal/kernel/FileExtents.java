package io.flushcheck.powercut.internal.kernel;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Where a file's bytes lie on the device below its filesystem, as the kernel's FIEMAP ioctl reports them
 * (Documentation/filesystems/fiemap.rst; what e2fsprogs' {@code filefrag} prints): so a write fault planned on
 * a file lands on the block model's drive where the file's next overwrite will be written, and the sectors a
 * cut discarded can be named by the files that hold them. Extents whose place is not decided yet (delayed
 * allocation: the bytes are still in the page cache) have no place on the device and are left out.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FileExtents {

    /**
     * {@code length} bytes of the device at {@code device}, holding the file's bytes from {@code logical}; {@code flags}
     * as FIEMAP gives them ({@code fe_flags}).
     */
    public record Extent(long logical, long device, long length, int flags) {

        /** An extent with no flags. */
        public Extent(long logical, long device, long length) {
            this(logical, device, length, 0);
        }

        /**
         * Why the device's bytes at {@link #device()} are not the file's bytes as they read, or null when they are: the
         * data is inline in the filesystem's metadata, packed in a tail, compressed or encrypted, or not written yet
         * (preallocated, it reads as zeros).
         */
        public String notAsStored() {
            if ((flags & (FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_DATA_TAIL)) != 0) {
                return "lie inline in the filesystem's metadata";
            }
            if ((flags & (FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_DATA_ENCRYPTED)) != 0) {
                return "are stored compressed or encrypted";
            }
            if ((flags & FIEMAP_EXTENT_UNWRITTEN) != 0) {
                return "are preallocated and not written (they read as zeros)";
            }
            return null;
        }
    }

    /**
     * The first of {@code extents} holding any of {@code length} bytes from {@code offset} of the file whose device
     * bytes are not the file's own as they read ({@link Extent#notAsStored}); null when there is none.
     */
    public static Extent notAsStored(List<Extent> extents, long offset, long length) {
        long end = offset + length;
        for (Extent e : extents) {
            if (e.notAsStored() != null && e.logical() < end && offset < e.logical() + e.length()) {
                return e;
            }
        }
        return null;
    }

    /** {@code _IOWR('f', 11, struct fiemap)}, the struct being 32 bytes before its extents. */
    private static final long FS_IOC_FIEMAP = 0xC020660BL;
    private static final int HEADER = 32;
    private static final int EXTENT = 56;
    private static final int BATCH = 128;
    private static final int FIEMAP_EXTENT_LAST = 0x1;
    private static final int FIEMAP_EXTENT_UNKNOWN = 0x2;
    private static final int FIEMAP_EXTENT_ENCODED = 0x8;
    private static final int FIEMAP_EXTENT_DATA_ENCRYPTED = 0x80;
    private static final int FIEMAP_EXTENT_DATA_INLINE = 0x200;
    private static final int FIEMAP_EXTENT_DATA_TAIL = 0x400;
    private static final int FIEMAP_EXTENT_UNWRITTEN = 0x800;

    private FileExtents() {
    }

    /** The file's extents that overlap {@code [offset, offset + length)}, cut to it; in bytes. */
    public static List<Extent> of(Path file, long offset, long length) throws IOException {
        List<Extent> extents = new ArrayList<>();
        for (Extent e : of(file)) {
            long from = Math.max(e.logical(), offset);
            long to = Math.min(e.logical() + e.length(), offset + length);
            if (from < to) {
                extents.add(new Extent(from, e.device() + (from - e.logical()), to - from, e.flags()));
            }
        }
        return extents;
    }

    /**
     * Every extent of {@code file} (a regular file or, where the filesystem maps them, a directory) that has
     * a place on the device; empty where the filesystem has no FIEMAP.
     */
    public static List<Extent> of(Path file) throws IOException {
        int fd = Libc.C.open(file.toString(), Libc.O_RDONLY | Libc.O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0) {
            throw new IOException("cannot open " + file + " to map its extents: " + Libc.C.strerror(Libc.errno()));
        }
        try (Memory buffer = new Memory(HEADER + (long) EXTENT * BATCH)) {
            List<Extent> extents = new ArrayList<>();
            long start = 0;
            while (true) {
                buffer.clear();
                buffer.setLong(0, start);
                buffer.setLong(8, Long.MAX_VALUE - start); // to the end of the file: FIEMAP_MAX_OFFSET
                buffer.setInt(24, BATCH);
                if (Libc.C.ioctl(fd, FS_IOC_FIEMAP, buffer) != 0) {
                    int errno = Libc.errno();
                    if (errno == EOPNOTSUPP) {
                        return List.of();
                    }
                    throw new IOException("FIEMAP of " + file + " failed: " + Libc.C.strerror(errno));
                }
                int mapped = buffer.getInt(20);
                boolean last = mapped == 0;
                for (int i = 0; i < mapped; i++) {
                    long at = HEADER + (long) EXTENT * i;
                    long logical = buffer.getLong(at);
                    long physical = buffer.getLong(at + 8);
                    long length = buffer.getLong(at + 16);
                    int flags = buffer.getInt(at + 40);
                    if ((flags & FIEMAP_EXTENT_UNKNOWN) == 0) {
                        extents.add(new Extent(logical, physical, length, flags));
                    }
                    start = logical + length;
                    last |= (flags & FIEMAP_EXTENT_LAST) != 0;
                }
                if (last) {
                    return extents;
                }
            }
        } finally {
            Libc.C.close(fd);
        }
    }

    private static final int O_NOFOLLOW = 0400000;
    private static final int EOPNOTSUPP = 95;
}

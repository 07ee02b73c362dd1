package io.flushcheck.powercut.internal.kernel;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Where btrfs's logical addresses lie on its one device: btrfs's FIEMAP gives a file's extents in its own logical
 * address space, which its chunk tree maps onto the devices, chunk by chunk. The chunk items are read from the
 * mounted filesystem with the {@code BTRFS_IOC_TREE_SEARCH} ioctl (root only), as {@code btrfs inspect-internal
 * dump-tree -t chunk} prints them. A filesystem of one device only: a chunk of the SINGLE profile has one place
 * there, one of DUP two copies, of which the first is given (a change to it alone, btrfs repairs from the second);
 * striped and mirrored profiles span devices, and are refused.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BtrfsChunks {

    /** {@code length} bytes of logical address space from {@code logical}, on the device from {@code device}. */
    private record Chunk(long logical, long length, long device, long type, int stripes, long devid) {
    }

    /** {@code _IOWR(0x94, 17, struct btrfs_ioctl_search_args)}, the struct being 4096 bytes. */
    private static final long BTRFS_IOC_TREE_SEARCH = 0xD0009411L;
    private static final int ARGS = 4096;
    private static final int KEY = 104;
    private static final int HEADER = 32;
    private static final long CHUNK_TREE = 3;
    private static final long FIRST_CHUNK_TREE_OBJECTID = 256;
    private static final int CHUNK_ITEM_KEY = 228;
    private static final int CHUNK_ITEM_BYTES = 48 + 32;
    /** RAID0, RAID1, RAID10, RAID5, RAID6, RAID1C3, RAID1C4: profiles whose data is not where one stripe says. */
    private static final long STRIPED = 8 | 16 | 64 | 128 | 256 | 512 | 1024;

    private final List<Chunk> chunks;

    private BtrfsChunks(List<Chunk> chunks) {
        this.chunks = chunks;
    }

    /** The chunks of the btrfs mounted where {@code anyFile} is (any file or directory of it). */
    public static BtrfsChunks of(Path anyFile) throws IOException {
        int fd = Libc.C.open(anyFile.toString(), Libc.O_RDONLY | Libc.O_CLOEXEC | Libc.O_NOFOLLOW);
        if (fd < 0) {
            throw new IOException("cannot open " + anyFile + " to read btrfs's chunk tree: " + Libc.C.strerror(Libc.errno()));
        }
        try (Memory args = new Memory(ARGS)) {
            List<Chunk> chunks = new ArrayList<>();
            long nextOffset = 0;
            while (true) {
                args.clear();
                args.setLong(0, CHUNK_TREE);
                args.setLong(8, FIRST_CHUNK_TREE_OBJECTID);
                args.setLong(16, FIRST_CHUNK_TREE_OBJECTID);
                args.setLong(24, nextOffset);
                args.setLong(32, -1L);
                args.setLong(40, 0);
                args.setLong(48, -1L);
                args.setInt(56, CHUNK_ITEM_KEY);
                args.setInt(60, CHUNK_ITEM_KEY);
                args.setInt(64, 4096);
                if (Libc.C.ioctl(fd, BTRFS_IOC_TREE_SEARCH, args) != 0) {
                    throw new IOException("BTRFS_IOC_TREE_SEARCH of the chunk tree under " + anyFile + " failed: "
                            + Libc.C.strerror(Libc.errno()));
                }
                int items = args.getInt(64);
                if (items == 0) {
                    return new BtrfsChunks(chunks);
                }
                long at = KEY;
                for (int i = 0; i < items; i++) {
                    long offset = args.getLong(at + 16);
                    int type = args.getInt(at + 24);
                    int len = args.getInt(at + 28);
                    long item = at + HEADER;
                    if (type == CHUNK_ITEM_KEY && len >= CHUNK_ITEM_BYTES) {
                        chunks.add(new Chunk(offset, args.getLong(item), args.getLong(item + 48 + 8),
                                args.getLong(item + 24), args.getShort(item + 44) & 0xffff, args.getLong(item + 48)));
                    }
                    nextOffset = offset + 1;
                    at = item + len;
                }
                if (nextOffset == 0) {
                    return new BtrfsChunks(chunks); // the last possible key
                }
            }
        } finally {
            Libc.C.close(fd);
        }
    }

    /**
     * {@code extents} of a file on this btrfs (FIEMAP's, in its logical addresses), where they lie on the device: an
     * extent that crosses chunks split at them.
     *
     * @throws IllegalArgumentException when an extent lies in no chunk, or in one whose profile spans devices
     */
    public List<FileExtents.Extent> onDevice(List<FileExtents.Extent> extents) {
        List<FileExtents.Extent> placed = new ArrayList<>();
        for (FileExtents.Extent e : extents) {
            long logical = e.device();
            long fileAt = e.logical();
            long left = e.length();
            while (left > 0) {
                Chunk c = chunkAt(logical);
                if ((c.type() & STRIPED) != 0 || c.devid() != 1) {
                    throw new IllegalArgumentException("btrfs's chunk at logical " + c.logical() + " (type 0x"
                            + Long.toHexString(c.type()) + ", " + c.stripes() + " stripes) spans devices: its bytes"
                            + " have no one place on the drive");
                }
                long n = Math.min(left, c.logical() + c.length() - logical);
                placed.add(new FileExtents.Extent(fileAt, c.device() + (logical - c.logical()), n, e.flags()));
                logical += n;
                fileAt += n;
                left -= n;
            }
        }
        return placed;
    }

    private Chunk chunkAt(long logical) {
        for (Chunk c : chunks) {
            if (logical >= c.logical() && logical - c.logical() < c.length()) {
                return c;
            }
        }
        throw new IllegalArgumentException("btrfs's logical address " + logical + " lies in none of its " + chunks.size()
                + " chunks");
    }
}

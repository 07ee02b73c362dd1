package io.flushcheck.powercut.internal.drive;

import io.flushcheck.powercut.internal.fuse.FuseChannel;
import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.powercut.internal.fuse.FuseServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * A FUSE filesystem that serves one file, {@value #FILE}, from a {@link SectorStore}, speaking the
 * kernel's protocol over {@code /dev/fuse} itself (linux/fuse.h, 7.x): no libfuse. A loop device on that
 * file turns every flush and FUA it receives into an fsync, so FSYNC here is exactly a drive's cache
 * flush. FSYNC is answered, never with ENOSYS: that reply would switch fsync off for the whole mount,
 * and the kernel would report every later fsync as done.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FuseDiskServer extends FuseServer {

    public static final String FILE = "disk.img";

    private static final long ROOT = 1;
    private static final long DISK = 2;
    private static final int BIG_WRITES = 1 << 5;
    private static final int MAX_PAGES = 1 << 22;

    private final SectorStore store;
    private final long started = System.currentTimeMillis() / 1000;

    private FuseDiskServer(SectorStore store, FuseMount mount) {
        super(mount);
        this.store = store;
    }

    /** Opens /dev/fuse and mounts the filesystem on {@code mountPoint} (root only); {@link #serve()} answers it. */
    public static FuseDiskServer mount(SectorStore store, Path mountPoint) throws IOException {
        if (!FuseMount.root()) {
            throw new IOException("the simulated drive's loop device needs root");
        }
        return new FuseDiskServer(store, FuseMount.mount(mountPoint, "flushcheck-disk"));
    }

    @Override
    protected int answer(int opcode, long node, ByteBuffer req, ByteBuffer rep) {
        int at = FuseChannel.IN_HEADER;
        switch (opcode) {
            case 26 -> FuseChannel.init(req, rep, BIG_WRITES | MAX_PAGES); // INIT
            case 1 -> { // LOOKUP
                String name = FuseChannel.cString(req);
                if (node != ROOT || !name.equals(FILE)) {
                    return -FuseChannel.ENOENT;
                }
                rep.putLong(DISK).putLong(0).putLong(3600).putLong(3600).putInt(0).putInt(0);
                attr(rep, DISK);
            }
            case 3, 4 -> { // GETATTR, SETATTR (the size and mode are fixed: a drive does not change size)
                if (node != ROOT && node != DISK) {
                    return -FuseChannel.ENOENT;
                }
                rep.putLong(3600).putInt(0).putInt(0);
                attr(rep, node);
            }
            case 14, 27 -> rep.putLong(0).putInt(0).putInt(0); // OPEN, OPENDIR
            case 15 -> { // READ
                long offset = req.getLong(at + 8);
                int size = req.getInt(at + 16);
                int len = (int) Math.max(0, Math.min(size, store.size() - offset));
                int failure = store.readResult(offset, rep.limit(FuseChannel.OUT_HEADER + len));
                if (failure != 0) {
                    return -failure; // a planned read fault: the loop device fails the block request with it
                }
            }
            case 16 -> { // WRITE: fuse_write_in is 40 bytes, the data follows
                long offset = req.getLong(at + 8);
                int size = req.getInt(at + 16);
                int failure = store.writeResult(offset, req.limit(at + 40 + size).position(at + 40));
                if (failure != 0) {
                    return -failure; // a planned write fault: the loop device fails the block request with it
                }
                rep.putInt(size).putInt(0);
            }
            case 20 -> { // FSYNC: the drive's cache flush (the loop driver reports any error of it as EIO)
                int failure = store.flushResult();
                if (failure != 0) {
                    return -failure;
                }
            }
            case 17 -> { // STATFS
                long blocks = store.size() / SectorStore.SECTOR;
                rep.putLong(blocks).putLong(0).putLong(0).putLong(2).putLong(0)
                        .putInt(SectorStore.SECTOR).putInt(255).putInt(SectorStore.SECTOR).putInt(0);
                for (int i = 0; i < 6; i++) {
                    rep.putInt(0);
                }
            }
            case 28 -> { } // READDIR: disk.img is found by name; an empty listing is enough
            case 18, 25, 29, 30, 34 -> { } // RELEASE, FLUSH (close), RELEASEDIR, FSYNCDIR, ACCESS
            default -> {
                return unserved(opcode);
            }
        }
        return FuseChannel.REPLY;
    }

    private void attr(ByteBuffer rep, long node) {
        boolean root = node == ROOT;
        long size = root ? 0 : store.size();
        rep.putLong(node).putLong(size).putLong((size + 511) / 512)
                .putLong(started).putLong(started).putLong(started).putInt(0).putInt(0).putInt(0)
                .putInt(root ? 040755 : 0100600).putInt(root ? 2 : 1).putInt(0).putInt(0).putInt(0)
                .putInt(SectorStore.SECTOR).putInt(0);
    }
}

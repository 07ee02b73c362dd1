package io.flushcheck.powercut.internal;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
public final class FuseDiskServer {

    public static final String FILE = "disk.img";

    private static final long ROOT = 1;
    private static final long DISK = 2;
    private static final int MAX_WRITE = 128 * 1024;
    private static final int BUFFER = MAX_WRITE + 64 * 1024;
    private static final int IN_HEADER = 40;
    private static final int OUT_HEADER = 16;
    private static final int ENOENT = 2;
    private static final int EINTR = 4;
    private static final int EIO = 5;
    private static final int EAGAIN = 11;
    private static final int ENODEV = 19;
    private static final int ENOSYS = 38;

    private final SectorStore store;
    private final Path mountPoint;
    private final int fd;
    private final Memory in = new Memory(BUFFER);
    private final Memory out = new Memory(BUFFER);
    // One view of each buffer for the server's life: a view made per request is a JNI call and an object.
    private final ByteBuffer req = in.getByteBuffer(0, BUFFER).order(ByteOrder.nativeOrder());
    private final ByteBuffer rep = out.getByteBuffer(0, BUFFER).order(ByteOrder.nativeOrder());
    private final long inAddress = Pointer.nativeValue(in);
    private final long outAddress = Pointer.nativeValue(out);
    private final long started = System.currentTimeMillis() / 1000;

    private FuseDiskServer(SectorStore store, Path mountPoint, int fd) {
        this.store = store;
        this.mountPoint = mountPoint;
        this.fd = fd;
    }

    /** Opens /dev/fuse and mounts the filesystem on {@code mountPoint} (root only); {@link #serve()} answers it. */
    public static FuseDiskServer mount(SectorStore store, Path mountPoint) throws IOException {
        int fd = Libc.C.open("/dev/fuse", Libc.O_RDWR | Libc.O_CLOEXEC);
        if (fd < 0) {
            throw new IOException("cannot open /dev/fuse: errno " + Libc.errno());
        }
        String options = "fd=" + fd + ",rootmode=40000,user_id=0,group_id=0,allow_other";
        if (Libc.C.mount("flushcheck-disk", mountPoint.toString(), "fuse.flushcheck-disk",
                Libc.MS_NOSUID | Libc.MS_NODEV, options) != 0) {
            int errno = Libc.errno();
            Libc.C.close(fd);
            throw new IOException("cannot mount FUSE on " + mountPoint + ": errno " + errno);
        }
        return new FuseDiskServer(store, mountPoint, fd);
    }

    /** Answers requests until the filesystem is unmounted (or DESTROY). */
    public void serve() throws IOException {
        while (true) {
            long n = DeviceCalls.read(fd, inAddress, BUFFER);
            if (n < 0) {
                int errno = Native.getLastError();
                if (errno == EINTR || errno == EAGAIN || errno == ENOENT) {
                    continue; // an interrupted request, or none: read again
                }
                if (errno == ENODEV) {
                    return; // unmounted
                }
                throw new IOException("reading /dev/fuse: errno " + errno);
            }
            if (n < IN_HEADER) {
                continue;
            }
            req.limit((int) n).position(IN_HEADER);
            int opcode = req.getInt(4);
            long unique = req.getLong(8);
            long node = req.getLong(16);
            if (!answer(opcode, unique, node)) {
                return;
            }
        }
    }

    /** Unmounts (lazily, so open files do not keep it) and closes the device. */
    public void unmount() {
        Libc.C.umount2(mountPoint.toString(), Libc.MNT_DETACH);
    }

    public void closeDevice() {
        Libc.C.close(fd);
    }

    private boolean answer(int opcode, long unique, long node) throws IOException {
        rep.clear().position(OUT_HEADER);
        switch (opcode) {
            case 26 -> init(); // INIT
            case 1 -> { // LOOKUP
                String name = cString(req);
                if (node != ROOT || !name.equals(FILE)) {
                    reply(unique, -ENOENT, 0);
                    return true;
                }
                rep.putLong(DISK).putLong(0).putLong(3600).putLong(3600).putInt(0).putInt(0);
                attr(DISK);
            }
            case 3, 4 -> { // GETATTR, SETATTR (the size and mode are fixed: a drive does not change size)
                if (node != ROOT && node != DISK) {
                    reply(unique, -ENOENT, 0);
                    return true;
                }
                rep.putLong(3600).putInt(0).putInt(0);
                attr(node);
            }
            case 14, 27 -> rep.putLong(0).putInt(0).putInt(0); // OPEN, OPENDIR
            case 15 -> { // READ
                long offset = req.getLong(IN_HEADER + 8);
                int size = req.getInt(IN_HEADER + 16);
                int len = (int) Math.max(0, Math.min(size, store.size() - offset));
                store.read(offset, rep.limit(OUT_HEADER + len));
            }
            case 16 -> { // WRITE: fuse_write_in is 40 bytes, the data follows
                long offset = req.getLong(IN_HEADER + 8);
                int size = req.getInt(IN_HEADER + 16);
                store.write(offset, req.limit(IN_HEADER + 40 + size).position(IN_HEADER + 40));
                rep.putInt(size).putInt(0);
            }
            case 20 -> { // FSYNC: the drive's cache flush
                if (!store.flush()) {
                    reply(unique, -EIO, 0);
                    return true;
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
            case 2, 42, 36 -> { // FORGET, BATCH_FORGET, INTERRUPT: no reply
                return true;
            }
            case 38 -> { // DESTROY
                reply(unique, 0, 0);
                return false;
            }
            default -> {
                reply(unique, -ENOSYS, 0);
                return true;
            }
        }
        reply(unique, 0, rep.position() - OUT_HEADER);
        return true;
    }

    private void init() {
        int minor = req.getInt(IN_HEADER + 4);
        int readahead = req.getInt(IN_HEADER + 8);
        int offered = req.getInt(IN_HEADER + 12);
        int bigWrites = 1 << 5;
        int maxPages = 1 << 22;
        rep.putInt(7).putInt(Math.min(minor, 38)).putInt(readahead).putInt(offered & (bigWrites | maxPages))
                .putShort((short) 16).putShort((short) 12).putInt(MAX_WRITE).putInt(1)
                .putShort((short) (MAX_WRITE / 4096)).putShort((short) 0).putInt(0);
        for (int i = 0; i < 7; i++) {
            rep.putInt(0);
        }
    }

    private void attr(long node) {
        boolean root = node == ROOT;
        long size = root ? 0 : store.size();
        rep.putLong(node).putLong(size).putLong((size + 511) / 512)
                .putLong(started).putLong(started).putLong(started).putInt(0).putInt(0).putInt(0)
                .putInt(root ? 040755 : 0100600).putInt(root ? 2 : 1).putInt(0).putInt(0).putInt(0)
                .putInt(SectorStore.SECTOR).putInt(0);
    }

    private void reply(long unique, int error, int payload) throws IOException {
        int len = OUT_HEADER + (error == 0 ? payload : 0);
        rep.putInt(0, len).putInt(4, error).putLong(8, unique);
        if (DeviceCalls.write(fd, outAddress, len) < 0) {
            int errno = Native.getLastError();
            if (errno != ENOENT) { // the request was interrupted meanwhile: nothing to answer
                throw new IOException("writing /dev/fuse: errno " + errno);
            }
        }
    }

    private static String cString(ByteBuffer req) {
        int start = req.position();
        int end = start;
        while (end < req.limit() && req.get(end) != 0) {
            end++;
        }
        byte[] b = new byte[end - start];
        req.get(start, b);
        return new String(b, StandardCharsets.UTF_8);
    }
}

package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.fuse.FuseChannel;
import io.flushcheck.powercut.internal.fuse.FuseMount;
import io.flushcheck.powercut.internal.fuse.FuseServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A FUSE filesystem that serves a {@link FileTree}, so that programs write to the file-level model through
 * the kernel's own calls: every write reaches the tree as it is made (no writeback cache: FUSE's default),
 * an fsync or fdatasync of a file (an {@code O_SYNC} write is followed by one) reaches it as FSYNC, of a
 * directory as FSYNCDIR. Mounted through fusermount where it is installed, root or not
 * ({@link FuseMount}). Symbolic links, extended attributes, device nodes and {@code fallocate} are not
 * supported (ENOSYS; the calls fail with it or with EOPNOTSUPP); POSIX locks are the kernel's own, local
 * to this machine, as on any local filesystem.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FuseTreeServer extends FuseServer {

    private static final int BIG_WRITES = 1 << 5;
    private static final int MAX_PAGES = 1 << 22;
    private static final int AT = FuseChannel.IN_HEADER;
    /** How long the kernel may trust a name or attributes: only it changes the tree, through this server. */
    private static final long VALID_SECONDS = 1;

    private static final int FATTR_MODE = 1;
    private static final int FATTR_UID = 1 << 1;
    private static final int FATTR_GID = 1 << 2;
    private static final int FATTR_SIZE = 1 << 3;
    private static final int FATTR_MTIME = 1 << 5;
    private static final int FATTR_MTIME_NOW = 1 << 8;
    private static final int RENAME_NOREPLACE = 1;

    private final FileTree tree;
    /** Requests answered that may change the tree (names, bytes, sizes, attributes), failed or not. */
    private volatile long changeRequests;

    private FuseTreeServer(FileTree tree, FuseMount mount) {
        super(mount);
        this.tree = tree;
    }

    /**
     * Mounts {@code tree} on {@code mountPoint} (root or not), through fusermount where it is installed, so
     * that the mount goes with the process serving it however it ends; {@link #serve()} answers it.
     */
    public static FuseTreeServer mount(FileTree tree, Path mountPoint) throws IOException {
        return new FuseTreeServer(tree, FuseMount.mountWatched(mountPoint, "flushcheck-files"));
    }

    /**
     * As {@link #mount(FileTree, Path)}, the kernel checking each request's permission bits against the tree's
     * ({@code default_permissions}), as a local filesystem's directory is checked.
     */
    public static FuseTreeServer mountChecked(FileTree tree, Path mountPoint) throws IOException {
        return new FuseTreeServer(tree, FuseMount.mountWatched(mountPoint, "flushcheck-files", "default_permissions"));
    }

    /**
     * The requests that may have changed the tree so far: SETATTR, MKNOD, MKDIR, UNLINK, RMDIR, RENAME, LINK, CREATE
     * and WRITE, failed or not.
     */
    public long changeRequests() {
        return changeRequests;
    }

    @Override
    protected int answer(int opcode, long node, ByteBuffer req, ByteBuffer rep) {
        switch (opcode) {
            case 4, 8, 9, 10, 11, 12, 45, 13, 35, 16 -> changeRequests++; // one thread serves: no race
            default -> { }
        }
        try {
            return handle(opcode, node, req, rep);
        } catch (FileTree.Errno e) {
            return -e.errno();
        } catch (java.io.UncheckedIOException e) {
            // The model's store failed: the server's failure, not a reply of the disk (DriveControl says so).
            throw e;
        } catch (IllegalArgumentException e) {
            return -EFBIG; // a file past what the model holds
        } catch (RuntimeException e) {
            // Answered, whatever it was: a request left unanswered would hang its caller and the mount.
            System.err.println("flushcheck file model: request " + opcode + " on node " + node + ": " + e);
            return -FuseChannel.EIO;
        }
    }

    private static final int EFBIG = 27;

    private int handle(int opcode, long node, ByteBuffer req, ByteBuffer rep) throws FileTree.Errno {
        switch (opcode) {
            case 26 -> FuseChannel.init(req, rep, BIG_WRITES | MAX_PAGES); // INIT
            case 1 -> entry(rep, tree.lookup(node, FuseChannel.cString(req))); // LOOKUP
            case 3 -> attrOut(rep, tree.node(node)); // GETATTR
            case 4 -> setattr(node, req, rep); // SETATTR
            case 8 -> { // MKNOD: fuse_mknod_in {mode, rdev, umask, padding}, then the name
                int mode = req.getInt(AT);
                if ((mode & 0170000) != 0100000) {
                    return -FuseChannel.ENOSYS; // only regular files
                }
                req.position(AT + 16);
                entry(rep, tree.create(node, FuseChannel.cString(req), false, mode, channel().uid(), channel().gid()));
            }
            case 9 -> { // MKDIR: fuse_mkdir_in {mode, umask}, then the name
                int mode = req.getInt(AT);
                req.position(AT + 8);
                entry(rep, tree.create(node, FuseChannel.cString(req), true, mode, channel().uid(), channel().gid()));
            }
            case 10, 11 -> tree.remove(node, FuseChannel.cString(req), opcode == 11); // UNLINK, RMDIR
            case 12, 45 -> { // RENAME: {newdir}; RENAME2: {newdir, flags, padding}; then both names
                long newDir = req.getLong(AT);
                int flags = opcode == 45 ? req.getInt(AT + 8) : 0;
                if ((flags & ~RENAME_NOREPLACE) != 0) {
                    return -FileTree.Errno.EINVAL; // RENAME_EXCHANGE, RENAME_WHITEOUT
                }
                req.position(AT + (opcode == 45 ? 16 : 8));
                String from = FuseChannel.cString(req);
                String to = FuseChannel.cString(req);
                tree.rename(node, from, newDir, to, flags != 0);
            }
            case 13 -> { // LINK: fuse_link_in {oldnodeid}, then the new name
                long target = req.getLong(AT);
                req.position(AT + 8);
                entry(rep, tree.link(target, node, FuseChannel.cString(req)));
            }
            // CREATE and OPEN are not served: the kernel then makes a file by MKNOD and opens files without asking
            // (Linux's no_create and no_open, since 3.14), and so sends no RELEASE either: a file made, written once
            // and closed costs four requests instead of five. Nothing here keys on an open file (each request names
            // its node), and the kernel then keeps a file's cached pages across opens (FOPEN_KEEP_CACHE), which only
            // this server's requests change, or a fault that drops them itself (PageCache).
            case 35, 14 -> {
                return -FuseChannel.ENOSYS;
            }
            case 27 -> { // OPENDIR: the node's id is the handle
                tree.node(node);
                rep.putLong(node).putInt(0).putInt(0);
            }
            case 15 -> { // READ: fuse_read_in {fh, offset, size, ...}
                long offset = req.getLong(AT + 8);
                int size = Math.min(req.getInt(AT + 16), rep.capacity() - FuseChannel.OUT_HEADER);
                rep.limit(FuseChannel.OUT_HEADER + size);
                tree.read(node, offset, rep);
            }
            case 16 -> { // WRITE: fuse_write_in is 40 bytes, the data follows
                long offset = req.getLong(AT + 8);
                int size = req.getInt(AT + 16);
                tree.write(node, offset, req.limit(AT + 40 + size).position(AT + 40));
                rep.putInt(size).putInt(0);
            }
            case 20, 30 -> { // FSYNC, FSYNCDIR: a durability point; FUSE hands its errno to the caller as it is
                int failure = tree.syncResult(node);
                if (failure != 0) {
                    return -failure;
                }
            }
            case 28 -> readdir(node, req, rep); // READDIR
            case 17 -> { // STATFS: fuse_kstatfs {blocks, bfree, bavail, files, ffree, bsize, namelen, frsize, ...}
                long blocks = tree.capacity() / 4096;
                long free = blocks - tree.used() / 4096;
                rep.putLong(blocks).putLong(free).putLong(free).putLong(1 << 20).putLong(1 << 19)
                        .putInt(4096).putInt(255).putInt(4096).putInt(0);
                for (int i = 0; i < 6; i++) {
                    rep.putInt(0);
                }
            }
            // FLUSH: each close(2), which waits for it (RELEASE comes later, asynchronously, after the last close).
            case 25 -> tree.closed(node);
            case 18, 29, 34 -> { } // RELEASE, RELEASEDIR, ACCESS
            default -> {
                return unserved(opcode);
            }
        }
        return FuseChannel.REPLY;
    }

    private void setattr(long node, ByteBuffer req, ByteBuffer rep) throws FileTree.Errno {
        // fuse_setattr_in: valid, padding, fh, size, lock_owner, atime, mtime, ctime, atimensec, mtimensec,
        // ctimensec, mode, unused4, uid, gid, unused5
        int valid = req.getInt(AT);
        if ((valid & FATTR_SIZE) != 0) {
            tree.truncate(node, req.getLong(AT + 16));
        }
        Long mtime = (valid & FATTR_MTIME_NOW) != 0 ? Long.valueOf(System.currentTimeMillis() / 1000)
                : (valid & FATTR_MTIME) != 0 ? Long.valueOf(req.getLong(AT + 40)) : null;
        tree.setAttributes(node, (valid & FATTR_MODE) != 0 ? req.getInt(AT + 68) : null,
                (valid & FATTR_UID) != 0 ? req.getInt(AT + 76) : null,
                (valid & FATTR_GID) != 0 ? req.getInt(AT + 80) : null, mtime);
        attrOut(rep, tree.node(node));
    }

    private void readdir(long node, ByteBuffer req, ByteBuffer rep) throws FileTree.Errno {
        long offset = req.getLong(AT + 8);
        int size = req.getInt(AT + 16);
        int end = FuseChannel.OUT_HEADER + Math.min(size, rep.capacity() - FuseChannel.OUT_HEADER);
        List<Map.Entry<String, TreeNode>> names = tree.list(node);
        // "." and ".." first, then the names in order; an entry's offset is the index of the next one.
        for (long i = offset; i < names.size() + 2; i++) {
            String name = i == 0 ? "." : i == 1 ? ".." : names.get((int) i - 2).getKey();
            TreeNode n = i == 0 ? tree.node(node) : i == 1 ? tree.lookup(node, "..") : names.get((int) i - 2).getValue();
            byte[] b = name.getBytes(StandardCharsets.UTF_8);
            int record = (24 + b.length + 7) & ~7;
            if (rep.position() + record > end) {
                break;
            }
            int start = rep.position();
            rep.putLong(n.id()).putLong(i + 1).putInt(b.length).putInt(n.dir() ? 4 : 8).put(b);
            while (rep.position() < start + record) {
                rep.put((byte) 0);
            }
        }
    }

    private static void entry(ByteBuffer rep, TreeNode n) {
        rep.putLong(n.id()).putLong(0).putLong(VALID_SECONDS).putLong(VALID_SECONDS).putInt(0).putInt(0);
        attr(rep, n);
    }

    private static void attrOut(ByteBuffer rep, TreeNode n) {
        rep.putLong(VALID_SECONDS).putInt(0).putInt(0);
        attr(rep, n);
    }

    /** fuse_attr: ino, size, blocks, atime, mtime, ctime, their nanoseconds, mode, nlink, uid, gid, rdev, blksize, flags. */
    private static void attr(ByteBuffer rep, TreeNode n) {
        long size = n.size();
        rep.putLong(n.id()).putLong(size).putLong((size + 511) / 512)
                .putLong(n.mtime()).putLong(n.mtime()).putLong(n.ctime()).putInt(0).putInt(0).putInt(0)
                .putInt(n.mode()).putInt(n.links()).putInt(n.uid()).putInt(n.gid()).putInt(0)
                .putInt(4096).putInt(0);
    }
}

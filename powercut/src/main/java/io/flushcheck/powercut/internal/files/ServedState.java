package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A crash state served over a FUSE mount of its own instead of written into a directory of the host: a tree of its own
 * made in memory (its bytes in a {@link FileStore} beside it) of the names, permission bits and bytes that
 * {@link StateDirectory} would write, in the same order, with the same hard links, owned by this process's user, as
 * files written here are. Processes read and change it through the kernel as they would that directory, the kernel
 * checking permission bits as it does a local filesystem's ({@code default_permissions}); what they change goes
 * with it. Each state has a mount of its own, so nothing the kernel cached of one state is seen in the next.
 *
 * <p>Its server is a thread of this process: only other processes may use the mount. A thread here that mapped one
 * of its files could fault with this process's memory map locked while the server needs that lock to answer.
 */
final class ServedState implements AutoCloseable {

    private final Path mountPoint;
    private final FileTree served;
    private final FuseTreeServer server;
    private final Thread serving;
    /** Why serving ended other than by the unmount, or null. */
    private volatile Throwable failure;
    private volatile boolean closing;

    private ServedState(Path mountPoint, FileTree served, FuseTreeServer server) {
        this.mountPoint = mountPoint;
        this.served = served;
        this.server = server;
        this.serving = new Thread(() -> {
            try {
                server.serve();
            } catch (Throwable e) {
                if (!closing) {
                    failure = e;
                }
            }
        }, "flushcheck-state-server");
        serving.setDaemon(true);
    }

    /**
     * Serves the state whose {@link FileTree#layout} is {@code layout} (of {@code from} as it is now) on
     * {@code mountPoint}, an empty directory; its bytes are kept in a store made in {@code storeParent}.
     */
    static ServedState serve(FileTree from, List<TreeWriter.Written> layout, Path mountPoint, Path storeParent)
            throws IOException {
        FileTree tree = copy(from, layout, storeParent);
        FuseTreeServer server;
        try {
            server = FuseTreeServer.mountChecked(tree, mountPoint);
        } catch (IOException | RuntimeException e) {
            tree.close();
            throw e;
        }
        ServedState s = new ServedState(mountPoint, tree, server);
        s.serving.start();
        return s;
    }

    /** A tree of its own holding what {@code layout} says, made as {@link TreeWriter#writeTree} writes it. */
    static FileTree copy(FileTree from, List<TreeWriter.Written> layout, Path storeParent) throws IOException {
        int uid = Libc.C.geteuid();
        int gid = Libc.C.getegid();
        FileTree to = new FileTree(uid, gid, storeParent, Long.MAX_VALUE, true);
        try {
            Map<String, Long> ids = new HashMap<>();
            ids.put("", FileTree.ROOT);
            for (TreeWriter.Written w : layout) {
                int slash = w.path().lastIndexOf('/');
                long parent = ids.get(slash < 0 ? "" : w.path().substring(0, slash));
                String name = w.path().substring(slash + 1);
                // The bits written out are the nine permission bits (Files.setPosixFilePermissions).
                int mode = w.mode() & 0777;
                if (w.linkOf() != null) {
                    to.link(ids.get(w.linkOf()), parent, name);
                } else {
                    long id = to.create(parent, name, w.dir(), mode, uid, gid).id();
                    ids.put(w.path(), id);
                    if (!w.dir()) {
                        from.copyFile(w, to, id);
                    }
                }
            }
            return to;
        } catch (FileTree.Errno e) {
            to.close();
            throw new IOException("cannot make a crash state's tree to serve: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            to.close();
            throw e;
        }
    }

    /** Where the state is mounted. */
    Path path() {
        return mountPoint;
    }

    /**
     * Unmounts the state, ends its server and drops its tree; throws when the mount stayed or its server failed while
     * it served (what a process read from it then cannot be trusted).
     */
    @Override
    public void close() throws IOException {
        closing = true;
        try {
            server.unmount();
            serving.join(10_000);
            if (serving.isAlive()) {
                throw new IOException("the server of the crash state mounted on " + mountPoint
                        + " was still serving 10 s after its unmount");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting the crash state on " + mountPoint, e);
        } finally {
            if (!serving.isAlive()) {
                server.close();
            }
            served.close();
        }
        Throwable failed = failure;
        if (failed != null) {
            throw new IOException("the server of the crash state mounted on " + mountPoint + " failed: " + failed,
                    failed);
        }
    }
}

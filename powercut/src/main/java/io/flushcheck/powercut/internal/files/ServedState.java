package io.flushcheck.powercut.internal.files;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A crash state's tree ({@link ServedTree}) served over a FUSE mount of its own, for processes to read and change
 * through the kernel as they would a directory of the host, the kernel checking permission bits as it does a local
 * filesystem's ({@code default_permissions}). Each state has a mount of its own, so that nothing the kernel cached of
 * one state is seen in the next.
 *
 * <p>Its server is a thread of this process: only other processes may use the mount. A thread here that mapped one
 * of its files could fault with this process's memory map locked while the server needs that lock to answer.
 */
final class ServedState implements AutoCloseable {

    private final Path mountPoint;
    private final FuseTreeServer server;
    private final Thread serving;
    /** Why serving ended other than by the unmount, or null. */
    private volatile Throwable failure;
    private volatile boolean closing;

    private ServedState(Path mountPoint, FuseTreeServer server) {
        this.mountPoint = mountPoint;
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

    /** Serves {@code tree} on {@code mountPoint}, an empty directory, until {@link #close}. */
    static ServedState mount(FileTree tree, Path mountPoint) throws IOException {
        ServedState s = new ServedState(mountPoint, FuseTreeServer.mountChecked(tree, mountPoint));
        s.serving.start();
        return s;
    }

    /** Whether a request that may change the tree (a name, bytes, a size, attributes) came while it was served. */
    boolean changed() {
        return server.changeRequests() > 0;
    }

    /** Where the state is mounted. */
    Path path() {
        return mountPoint;
    }

    /**
     * Unmounts the state and ends its server; throws when the mount stayed or its server failed while
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
        }
        Throwable failed = failure;
        if (failed != null) {
            throw new IOException("the server of the crash state mounted on " + mountPoint + " failed: " + failed,
                    failed);
        }
    }
}

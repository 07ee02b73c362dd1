package io.flushcheck.powercut.internal.files;

import io.flushcheck.powercut.internal.fuse.FuseStop;
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

    /** How long a close waits for the server to finish the request it is answering. */
    private static final long STOP_MILLIS = 10_000;

    private final Path mountPoint;
    private final FuseTreeServer server;
    private final FuseStop stop;
    private final Thread serving;
    /** Why serving ended other than by the close, or null. */
    private volatile Throwable failure;
    private volatile boolean closing;

    private ServedState(Path mountPoint, FuseTreeServer server, FuseStop stop) {
        this.mountPoint = mountPoint;
        this.server = server;
        this.stop = stop;
        this.serving = new Thread(() -> {
            try {
                server.serve(stop);
            } catch (Throwable e) {
                if (!closing) {
                    failure = e;
                }
            } finally {
                // The thread's own descriptors, closed by it: no other closes one it may still use.
                server.close();
                stop.close();
            }
        }, "flushcheck-state-server");
        serving.setDaemon(true);
    }

    /** Serves {@code tree} on {@code mountPoint}, an empty directory, until {@link #close}. */
    static ServedState mount(FileTree tree, Path mountPoint) throws IOException {
        FuseStop stop = FuseStop.open();
        ServedState s;
        try {
            s = new ServedState(mountPoint, FuseTreeServer.mountChecked(tree, mountPoint), stop);
        } catch (IOException | RuntimeException e) {
            stop.close();
            throw e;
        }
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
     * Stops the server, which closes its connection's descriptor (the kernel then ends the connection: a process
     * still using the state, a file of it held open, is answered ENOTCONN), and unmounts the state; throws when the
     * server was still answering a request {@value #STOP_MILLIS} ms after it was asked to stop, the mount stayed, or
     * the server failed while it served (what a process read from it then cannot be trusted). Whatever fails, the
     * rest is done.
     */
    @Override
    public void close() throws IOException {
        closing = true;
        stop.stop();
        boolean interrupted = false;
        long deadline = System.nanoTime() + STOP_MILLIS * 1_000_000;
        while (serving.isAlive() && System.nanoTime() < deadline) {
            try {
                serving.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true; // the unmount below is still due; the interrupt is kept for the caller
                break;
            }
        }
        IOException failed = null;
        if (serving.isAlive()) {
            failed = new IOException("the server of the crash state mounted on " + mountPoint + " was still answering"
                    + " a request " + STOP_MILLIS / 1000 + " s after it was asked to stop"
                    + (interrupted ? " (interrupted while waiting)" : "") + "; it is at " + where(serving));
        }
        try {
            server.unmount();
        } catch (IOException e) {
            if (failed == null) {
                failed = e;
            } else {
                failed.addSuppressed(e);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failed != null) {
            throw failed;
        }
        Throwable broke = failure;
        if (broke != null) {
            throw new IOException("the server of the crash state mounted on " + mountPoint + " failed: " + broke, broke);
        }
    }

    /** The top of {@code thread}'s stack, for a message. */
    private static String where(Thread thread) {
        StackTraceElement[] stack = thread.getStackTrace();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(5, stack.length); i++) {
            sb.append(i == 0 ? "" : " < ").append(stack[i]);
        }
        return sb.length() == 0 ? "an unknown place" : sb.toString();
    }
}

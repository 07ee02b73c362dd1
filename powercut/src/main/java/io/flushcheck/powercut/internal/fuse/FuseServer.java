package io.flushcheck.powercut.internal.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * A FUSE filesystem of flushcheck's own, mounted: it answers the kernel until unmounted. What it serves is
 * the subclass's {@link #answer}; the mount, its channel and their ends are the same for every one.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public abstract class FuseServer {

    private final FuseMount mount;
    private final FuseChannel channel;

    protected FuseServer(FuseMount mount) {
        this.mount = mount;
        this.channel = new FuseChannel(mount.fd());
    }

    /** The connection to the kernel: who made the request being answered ({@link FuseChannel#uid()}). */
    protected final FuseChannel channel() {
        return channel;
    }

    /** Answers requests until the filesystem is unmounted (or DESTROY). */
    public final void serve() throws IOException {
        channel.serve(this::answer);
    }

    /**
     * As {@link #serve()}, until {@code stop} is asked for too, even while a process holds a file of the mount open
     * (an unmount then leaves the connection up, and this thread waiting on it).
     */
    public final void serve(FuseStop stop) throws IOException {
        channel.serve(this::answer, stop);
    }

    /** Unmounts, lazily (open files do not keep it); throws when the mount is still there afterwards. */
    public final void unmount() throws IOException {
        mount.unmount();
    }

    /**
     * Closes the connection's descriptor, once serving has ended. The last descriptor of a connection closed, the
     * kernel ends it: a process still using the mount is answered ENOTCONN from then on.
     */
    public final void close() {
        mount.closeDevice();
    }

    /** The reply to one request, as {@link FuseChannel.Handler#answer} gives it. */
    protected abstract int answer(int opcode, long node, ByteBuffer req, ByteBuffer rep) throws IOException;

    /**
     * The answer to a request the filesystem itself does not serve, the same for every one: FORGET, BATCH_FORGET
     * and INTERRUPT take no reply, DESTROY ends serving, and any other is not implemented (ENOSYS).
     */
    protected static int unserved(int opcode) {
        return switch (opcode) {
            case 2, 42, 36 -> FuseChannel.NO_REPLY; // FORGET, BATCH_FORGET, INTERRUPT
            case 38 -> FuseChannel.STOP; // DESTROY
            default -> -FuseChannel.ENOSYS;
        };
    }
}

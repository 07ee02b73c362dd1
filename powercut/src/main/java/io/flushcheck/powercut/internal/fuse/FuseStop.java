package io.flushcheck.powercut.internal.fuse;

import com.sun.jna.Memory;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import org.apiguardian.api.API;

/**
 * Ends a FUSE server's serving from another thread, whether it is answering a request or waiting for one: a thread
 * blocked reading {@code /dev/fuse} is not woken by an unmount while a process still holds a file of the mount open,
 * nor by closing the descriptor (the read holds it). The server waits in {@code poll(2)} on its connection and on a
 * pipe of this stop's, whose write end {@link #stop} closes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FuseStop {

    private final int readEnd;
    private final int writeEnd;
    private final Memory polled = new Memory(16);
    private volatile boolean stopped;
    private boolean writeClosed;
    private boolean readClosed;

    private FuseStop(int readEnd, int writeEnd) {
        this.readEnd = readEnd;
        this.writeEnd = writeEnd;
    }

    /** A stop not yet asked for. */
    public static FuseStop open() throws IOException {
        int[] ends = new int[2];
        if (Libc.C.pipe2(ends, Libc.O_CLOEXEC) != 0) {
            throw new IOException("cannot make a pipe to stop a FUSE server with: " + Libc.C.strerror(Libc.errno()));
        }
        return new FuseStop(ends[0], ends[1]);
    }

    /** Asks the server to stop: it returns from serving after the request it is answering, if any. */
    public synchronized void stop() {
        stopped = true;
        if (!writeClosed) {
            writeClosed = true;
            Libc.C.close(writeEnd); // the read end polls as hung up from now on
        }
    }

    /** Whether {@link #stop} was called. */
    boolean stopped() {
        return stopped;
    }

    /** Waits until {@code fuse} has a request to read (or has ended) or the stop is asked for. */
    void await(int fuse) {
        // EINTR, or any other failure: the caller reads again, and finds what there is
        FuseChannel.awaitReadable(polled, fuse, readEnd);
    }

    /** Closes the pipe, once the server has stopped serving. */
    public synchronized void close() {
        stop();
        if (!readClosed) {
            readClosed = true;
            Libc.C.close(readEnd);
        }
    }
}

package io.flushcheck.powercut.internal.fuse;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.flushcheck.powercut.internal.sys.DeviceCalls;
import io.flushcheck.powercut.internal.sys.Libc;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apiguardian.api.API;

/**
 * One FUSE connection's requests and replies, in the kernel's protocol over {@code /dev/fuse}
 * (linux/fuse.h, 7.x), with no libfuse: reads a request into one buffer, lets a {@link Handler} write
 * the reply's body into another, and writes the reply. Each buffer has one view for the connection's
 * life: a view made per request is a JNI call and an object.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class FuseChannel {

    public static final int IN_HEADER = 40;
    public static final int OUT_HEADER = 16;
    static final int MAX_WRITE = 128 * 1024;
    private static final int BUFFER = MAX_WRITE + 64 * 1024;

    /** A handler's answer: send the body written so far, with no error. */
    public static final int REPLY = 0;
    /** A handler's answer: no reply at all (FORGET, INTERRUPT). */
    public static final int NO_REPLY = Integer.MIN_VALUE;
    /** A handler's answer: reply, then stop serving (DESTROY). */
    public static final int STOP = Integer.MIN_VALUE + 1;

    public static final int ENOENT = 2;
    static final int EINTR = 4;
    public static final int EIO = 5;
    static final int EAGAIN = 11;
    static final int ENODEV = 19;
    public static final int ENOSYS = 38;
    static final int ECONNABORTED = 103;

    /** The answer to one request. */
    public interface Handler {
        /**
         * Answers request {@code opcode} for {@code node}: its body is in {@code req} from its position, the
         * reply's body goes into {@code rep} from its position. Returns {@link #REPLY}, a negative errno,
         * {@link #NO_REPLY} or {@link #STOP}.
         */
        int answer(int opcode, long node, ByteBuffer req, ByteBuffer rep) throws IOException;
    }

    private final int fd;
    private final Memory in = new Memory(BUFFER);
    private final Memory out = new Memory(BUFFER);
    private final ByteBuffer req = in.getByteBuffer(0, BUFFER).order(ByteOrder.nativeOrder());
    private final ByteBuffer rep = out.getByteBuffer(0, BUFFER).order(ByteOrder.nativeOrder());
    private final long inAddress = Pointer.nativeValue(in);
    private final long outAddress = Pointer.nativeValue(out);
    /** Two {@code struct pollfd}s for {@link #await}. */
    private final Memory pollFds = new Memory(16);
    private static final short POLLIN = 1;

    public FuseChannel(int fd) {
        this.fd = fd;
    }

    int fd() {
        return fd;
    }

    /** Answers requests until the filesystem is unmounted or the handler stops. */
    public void serve(Handler handler) throws IOException {
        serve(handler, null);
    }

    private static final int F_GETFL = 3;
    private static final int F_SETFL = 4;

    /**
     * How long a server with no request queued keeps asking for the next one, yielding its processor between asks,
     * before it sleeps in {@code poll(2)}. A request that wakes a sleeping server on another processor costs an
     * interrupt between processors; a program that makes one request after another (create, write, close, ...)
     * sends its next within this while, and finds the server awake. Measured on a 2-core virtual machine: 100,000
     * files made, written and closed over the file model in 4.6 to 4.9 s with it, 5.6 to 6.0 s without (the run's
     * time as {@code flushcheck powercut explore} says it). A server left idle costs this much processor time once,
     * then none.
     */
    static final long SPIN_NANOS = 50_000;

    /**
     * As {@link #serve(Handler)}, until {@code stop} is asked for too (when not null). The descriptor is made
     * non-blocking: a server with no request queued asks again for {@link #SPIN_NANOS}, then waits in {@code poll(2)}
     * (in {@link FuseStop#await} with a stop, where the stop reaches it).
     */
    public void serve(Handler handler, FuseStop stop) throws IOException {
        int flags = Libc.C.fcntl(fd, F_GETFL, 0);
        if (flags < 0 || Libc.C.fcntl(fd, F_SETFL, flags | Libc.O_NONBLOCK) != 0) {
            throw new IOException("cannot make /dev/fuse non-blocking: " + Libc.C.strerror(Libc.errno()));
        }
        long idleSince = 0;
        while (true) {
            if (stop != null && stop.stopped()) {
                return;
            }
            long n = DeviceCalls.read(fd, inAddress, BUFFER);
            if (n < 0) {
                int errno = Native.getLastError();
                if (errno == EAGAIN) { // no request queued
                    long now = System.nanoTime();
                    if (idleSince == 0) {
                        idleSince = now;
                    }
                    if (now - idleSince < SPIN_NANOS) {
                        Thread.yield(); // a program on this processor runs first
                    } else {
                        idleSince = 0;
                        if (stop != null) {
                            stop.await(fd);
                        } else {
                            await();
                        }
                    }
                    continue;
                }
                if (errno == EINTR || errno == ENOENT) {
                    continue; // an interrupted request: read again
                }
                if (errno == ENODEV || errno == ECONNABORTED) {
                    return; // unmounted, or the connection ended with its last mount
                }
                throw new IOException("reading /dev/fuse: errno " + errno);
            }
            idleSince = 0;
            if (n < IN_HEADER) {
                continue;
            }
            req.limit((int) n).position(IN_HEADER);
            int opcode = req.getInt(4);
            long unique = req.getLong(8);
            long node = req.getLong(16);
            rep.clear().position(OUT_HEADER);
            int answer = handler.answer(opcode, node, req, rep);
            if (answer == NO_REPLY) {
                continue;
            }
            reply(unique, answer == STOP ? 0 : answer, rep.position() - OUT_HEADER);
            if (answer == STOP) {
                return;
            }
        }
    }

    /** Waits until the connection has a request to read, or has ended; EINTR or a failure: the caller reads again. */
    private void await() {
        awaitReadable(pollFds, fd, -1);
    }

    /**
     * Waits in {@code poll(2)} until {@code fuse} has a request to read (or has ended) or {@code other} (-1: none,
     * which poll leaves out) is readable or hung up, with {@code fds} two {@code struct pollfd}s' room.
     */
    static void awaitReadable(Memory fds, int fuse, int other) {
        fds.setInt(0, fuse);
        fds.setShort(4, POLLIN);
        fds.setShort(6, (short) 0);
        fds.setInt(8, other);
        fds.setShort(12, POLLIN);
        fds.setShort(14, (short) 0);
        Libc.C.poll(fds, 2, -1);
    }

    /** The uid of the process a request came from. */
    public int uid() {
        return req.getInt(24);
    }

    /** The gid of the process a request came from. */
    public int gid() {
        return req.getInt(28);
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

    /**
     * The INIT reply: protocol 7 at the kernel's minor version up to 38, {@link #MAX_WRITE} bytes a write,
     * and of the flags the kernel offers only those in {@code wanted}.
     */
    public static void init(ByteBuffer req, ByteBuffer rep, int wanted) {
        int minor = req.getInt(IN_HEADER + 4);
        int readahead = req.getInt(IN_HEADER + 8);
        int offered = req.getInt(IN_HEADER + 12);
        rep.putInt(7).putInt(Math.min(minor, 38)).putInt(readahead).putInt(offered & wanted)
                .putShort((short) 16).putShort((short) 12).putInt(MAX_WRITE).putInt(1)
                .putShort((short) (MAX_WRITE / 4096)).putShort((short) 0).putInt(0);
        for (int i = 0; i < 7; i++) {
            rep.putInt(0);
        }
    }

    /** A NUL-terminated name at the buffer's position, which moves past it. */
    public static String cString(ByteBuffer req) {
        int start = req.position();
        int end = start;
        while (end < req.limit() && req.get(end) != 0) {
            end++;
        }
        byte[] b = new byte[end - start];
        req.get(start, b);
        req.position(Math.min(req.limit(), end + 1));
        return new String(b, StandardCharsets.UTF_8);
    }
}

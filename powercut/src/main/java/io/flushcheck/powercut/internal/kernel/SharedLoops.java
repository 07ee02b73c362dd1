package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Loop devices attached by the workers of one job, each holding one at a time: a worker that finds none free while
 * another worker of the job holds one waits for that one's release and tries again, rather than fail where the job
 * alone has taken the machine's last devices. With none held by the job, no free device is an error, as a single
 * worker's attach would say it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SharedLoops {

    /** How a device is attached: {@link LoopDevices#attach}, read-write, without direct I/O. */
    @FunctionalInterface
    public interface Attach {
        String attach(Path file) throws IOException;
    }

    private final Attach attach;
    /** The devices the job's workers hold now. */
    private int held;
    /** The devices they released so far: a change means one may have come free since an attempt. */
    private long released;

    /** Attaching by {@link LoopDevices#attach}. */
    public SharedLoops() {
        this(file -> LoopDevices.attach(file, false));
    }

    /** Attaching by {@code attach}, which throws {@link LoopDevices.NoFreeLoopDevice} when none is free. */
    public SharedLoops(Attach attach) {
        this.attach = attach;
    }

    /**
     * Attaches a free loop device to {@code file} ({@link LoopDevices#attach}), waiting while the kernel has none
     * free and another of the job's workers holds one; {@link #release} must follow each.
     *
     * @throws LoopDevices.NoFreeLoopDevice when none is free and the job holds none
     * @throws InterruptedIOException        when interrupted while it waits
     */
    public String attach(Path file) throws IOException {
        while (true) {
            long seen;
            synchronized (this) {
                seen = released;
            }
            try {
                String device = attach.attach(file);
                synchronized (this) {
                    held++;
                }
                return device;
            } catch (LoopDevices.NoFreeLoopDevice e) {
                synchronized (this) {
                    if (released == seen && held == 0) {
                        throw e;
                    }
                    while (released == seen) {
                        try {
                            wait();
                        } catch (InterruptedException i) {
                            Thread.currentThread().interrupt();
                            InterruptedIOException stopped = new InterruptedIOException(
                                    "interrupted while waiting for a loop device for " + file);
                            stopped.initCause(i);
                            throw stopped;
                        }
                    }
                }
            }
        }
    }

    /** A device {@link #attach} gave was detached: a worker waiting for one tries again. */
    public synchronized void release() {
        held--;
        released++;
        notifyAll();
    }

    /** The devices the job's workers hold now. */
    public synchronized int held() {
        return held;
    }
}

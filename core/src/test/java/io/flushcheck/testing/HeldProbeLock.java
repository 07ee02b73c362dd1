package io.flushcheck.testing;

import io.flushcheck.probe.ProbeLock;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Another measurement, for tests of what waits for the {@link ProbeLock}: a thread that takes the
 * lock when this is created and gives it up at {@link #release()} or {@link #close()}.
 */
public final class HeldProbeLock implements AutoCloseable {

    private final CountDownLatch release = new CountDownLatch(1);
    private final Thread holder;

    private HeldProbeLock() throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        holder = new Thread(() -> ProbeLock.exclusively(() -> {
            held.countDown();
            try {
                return release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }), "other-measurement");
        holder.start();
        held.await();
    }

    /** Returns once the other thread holds the lock. */
    public static HeldProbeLock take() throws InterruptedException {
        return new HeldProbeLock();
    }

    /** Lets the lock go and waits until the holder has ended. */
    public void release() throws InterruptedException {
        release.countDown();
        holder.join();
    }

    @Override
    public void close() throws InterruptedException {
        release();
    }
}

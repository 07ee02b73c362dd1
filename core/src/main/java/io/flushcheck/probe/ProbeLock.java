package io.flushcheck.probe;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * One measurement at a time in this JVM. Device counters are shared by the whole disk, so two
 * measurements that overlap count each other's flushes; every measuring caller (the JUnit
 * extensions, the SQLite matrix) runs inside {@link #exclusively(Supplier)}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ProbeLock {

    private static final ReentrantLock LOCK = new ReentrantLock();

    private ProbeLock() {
    }

    public static <T> T exclusively(Supplier<T> measurement) {
        LOCK.lock();
        try {
            return measurement.get();
        } finally {
            LOCK.unlock();
        }
    }
}

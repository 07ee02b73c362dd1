package io.flushcheck.powercut.internal.states;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Items checked by up to a given number of workers at once, each worker with means of its own (an image file, a
 * mount point), taking the items in the order given; each result is kept at its item's index, so that what is
 * made of them afterwards is the same whatever the number of workers. An item is taken and prepared under one
 * lock, in the order given (states' images are made from an image that only moves forward); its check runs
 * outside it, beside the other workers'. The first worker runs on the calling thread: one worker is a plain loop.
 *
 * <p>Once an item throws, no worker takes another; the items taken before it finish, and what is thrown is what the
 * first item in the order that threw threw: every item before it was taken before it, so that is the item a single
 * worker would have stopped at, whatever the timing. The calling thread interrupted stops the pool as well: the
 * other workers are interrupted, waited for (each takes its item down), and {@link InterruptedIOException} thrown.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OrderedPool {

    /** One worker's means: it prepares and checks the items it takes, and is closed when it takes no more. */
    public interface Worker<R> extends AutoCloseable {
        /** Runs under the pool's lock, the items in the order given: what must be done in that order. */
        void prepare(int item) throws Exception;

        /** Runs beside the other workers' checks. */
        R check(int item) throws Exception;

        @Override
        void close() throws IOException;
    }

    /** Opens worker {@code number} (from 0), on the thread that runs it. */
    @FunctionalInterface
    public interface Workers<R> {
        Worker<R> open(int number) throws IOException;
    }

    private final List<Integer> order;
    private final Object lock = new Object();
    /** The place in {@link #order} of the next item to take. */
    private int next;
    /** What was thrown, by place in {@link #order} (-1: opening a worker); null for none. */
    private final Throwable[] thrown;
    private Throwable openFailed;
    private volatile boolean stopped;

    private OrderedPool(List<Integer> order) {
        this.order = List.copyOf(order);
        this.thrown = new Throwable[order.size()];
    }

    /**
     * Checks each item of {@code order} (indexes below {@code size}) on up to {@code workers} workers.
     *
     * @return each item's result at its index; null at the indexes not in {@code order}
     * @throws IOException what the first item in the order that threw threw (an unchecked one as it was), with
     *     what later ones threw as suppressed; {@link InterruptedIOException} when the calling thread was interrupted
     */
    public static <R> List<R> run(List<Integer> order, int size, int workers, Workers<R> opened) throws IOException {
        if (workers < 1) {
            throw new IllegalArgumentException("at least 1 worker: " + workers);
        }
        return new OrderedPool(order).run(size, Math.max(1, Math.min(workers, order.size())), opened);
    }

    private <R> List<R> run(int size, int workers, Workers<R> opened) throws IOException {
        Object[] results = new Object[size];
        List<Thread> threads = new ArrayList<>();
        String name = Thread.currentThread().getName();
        for (int w = 1; w < workers; w++) {
            int number = w;
            Thread t = new Thread(() -> work(number, opened, results), name + "-state-worker-" + w);
            t.setDaemon(true);
            try {
                t.start();
            } catch (OutOfMemoryError e) {
                break; // the machine makes no more threads now: the workers started do the work
            }
            threads.add(t);
        }
        work(0, opened, results); // catches what it meets: the other workers are waited for whatever happens
        boolean interrupted = Thread.interrupted();
        if (interrupted) {
            stop(threads);
        }
        for (Thread t : threads) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    stop(threads);
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while checking crash states");
        }
        throwFirst();
        @SuppressWarnings("unchecked")
        List<R> list = (List<R>) Arrays.asList(results);
        return list;
    }

    /** No worker takes another item; the others' checks are interrupted. */
    private void stop(List<Thread> threads) {
        stopped = true;
        for (Thread t : threads) {
            t.interrupt();
        }
    }

    /** One worker's loop: opens its means, takes items until none is left or the pool stops, closes them. */
    private <R> void work(int number, Workers<R> opened, Object[] results) {
        Worker<R> worker;
        try {
            worker = opened.open(number);
        } catch (IOException | RuntimeException | Error e) {
            synchronized (lock) {
                openFailed = openFailed == null ? e : addSuppressed(openFailed, e);
            }
            stopped = true;
            return;
        }
        try (worker) {
            while (true) {
                int place;
                int item;
                synchronized (lock) {
                    if (stopped || next >= order.size() || (number == 0 && Thread.currentThread().isInterrupted())) {
                        return;
                    }
                    place = next++;
                    item = order.get(place);
                    try {
                        worker.prepare(item);
                    } catch (Exception | Error e) {
                        thrown[place] = e;
                        stopped = true;
                        return;
                    }
                }
                try {
                    results[item] = worker.check(item);
                } catch (Exception | Error e) {
                    if (e instanceof InterruptedException || e.getClass() == InterruptedIOException.class) {
                        Thread.currentThread().interrupt(); // said again: the pool stops for it, as interrupted
                    }
                    synchronized (lock) {
                        thrown[place] = e;
                    }
                    stopped = true;
                    return;
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            synchronized (lock) {
                openFailed = openFailed == null ? e : addSuppressed(openFailed, e);
            }
            stopped = true;
        }
    }

    private static Throwable addSuppressed(Throwable to, Throwable e) {
        if (to != e) {
            to.addSuppressed(e);
        }
        return to;
    }

    /** Throws what the first item in the order that threw threw, the others' as suppressed; nothing when none did. */
    private void throwFirst() throws IOException {
        Throwable first = null;
        synchronized (lock) {
            for (Throwable t : thrown) {
                if (t != null) {
                    first = first == null ? t : addSuppressed(first, t);
                }
            }
            if (openFailed != null) {
                first = first == null ? openFailed : addSuppressed(first, openFailed);
            }
        }
        if (first == null) {
            return;
        }
        if (first instanceof IOException e) {
            throw e;
        }
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first instanceof InterruptedException e) {
            InterruptedIOException i = new InterruptedIOException(e.getMessage());
            i.initCause(e);
            Thread.currentThread().interrupt();
            throw i;
        }
        throw new IOException(first.getMessage(), first);
    }
}

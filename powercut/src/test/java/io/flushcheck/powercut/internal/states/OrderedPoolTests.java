package io.flushcheck.powercut.internal.states;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The pool that checks crash states on several workers: items prepared one at a time in the order given, checked
 * side by side, each result at its item's index; the exception of the first item in the order that threw, however
 * the workers' timing falls; every worker's means closed, whatever happened.
 */
class OrderedPoolTests {

    /** A worker that notes what it prepared, in order, and answers each item with its index, in words. */
    private static final class Noting implements OrderedPool.Worker<String> {
        final List<Integer> prepared;
        final AtomicInteger running;
        final AtomicInteger most;
        final Set<Integer> closed;
        final int number;

        Noting(int number, List<Integer> prepared, AtomicInteger running, AtomicInteger most, Set<Integer> closed) {
            this.number = number;
            this.prepared = prepared;
            this.running = running;
            this.most = most;
            this.closed = closed;
        }

        @Override
        public void prepare(int item) {
            prepared.add(item); // under the pool's lock: a plain list shows the order
        }

        @Override
        public String check(int item) throws Exception {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(5 + item % 3);
                return "item " + item;
            } finally {
                running.decrementAndGet();
            }
        }

        @Override
        public void close() {
            closed.add(number);
        }
    }

    @Test
    void itemsArePreparedInTheOrderGivenCheckedSideBySideAndTheirResultsKeptByIndex() throws IOException {
        List<Integer> order = List.of(5, 0, 7, 2, 9, 1, 3, 8, 6, 4, 11, 10);
        List<Integer> prepared = new ArrayList<>();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Set<Integer> closed = ConcurrentHashMap.newKeySet();
        List<String> results = OrderedPool.run(order, 13, 3,
                n -> new Noting(n, prepared, running, most, closed));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            expected.add("item " + i);
        }
        expected.add(null); // index 12 is not in the order
        assertThat(results).isEqualTo(expected);
        assertThat(prepared).isEqualTo(order);
        assertThat(most.get()).as("checks running at once").isEqualTo(3);
        assertThat(closed).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void oneWorkerChecksOnTheCallingThreadOneItemAtATime() throws IOException {
        Thread caller = Thread.currentThread();
        List<Thread> seen = Collections.synchronizedList(new ArrayList<>());
        List<Integer> results = OrderedPool.run(List.of(2, 0, 1), 3, 1, n -> new OrderedPool.Worker<>() {
            @Override
            public void prepare(int item) {
            }

            @Override
            public Integer check(int item) {
                seen.add(Thread.currentThread());
                return item * 10;
            }

            @Override
            public void close() {
            }
        });
        assertThat(results).containsExactly(0, 10, 20);
        assertThat(seen).hasSize(3).allMatch(t -> t == caller);
    }

    /**
     * The item at place 3 of the order throws late; the one at place 6 throws at once, so that it throws first in
     * time: what the pool throws is place 3's, as one worker would, with place 6's suppressed; no item after them
     * is taken, and every worker is closed.
     */
    @Test
    void whatIsThrownIsTheFirstItemsInTheOrderNotTheFirstInTime() {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            order.add(i);
        }
        CountDownLatch laterThrew = new CountDownLatch(1);
        Set<Integer> checked = ConcurrentHashMap.newKeySet();
        Set<Integer> closed = ConcurrentHashMap.newKeySet();
        assertThatThrownBy(() -> OrderedPool.run(order, order.size(), 4, n -> new OrderedPool.Worker<Void>() {
            @Override
            public void prepare(int item) {
            }

            @Override
            public Void check(int item) throws Exception {
                checked.add(item);
                if (item == 3) {
                    assertThat(laterThrew.await(10, TimeUnit.SECONDS)).isTrue();
                    throw new IOException("item 3 failed");
                }
                if (item == 6) {
                    laterThrew.countDown();
                    throw new IllegalStateException("item 6 failed");
                }
                Thread.sleep(20);
                return null;
            }

            @Override
            public void close() {
                closed.add(n);
            }
        })).isInstanceOf(IOException.class).hasMessage("item 3 failed")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage)
                        .containsExactly("item 6 failed"));
        assertThat(checked).as("items taken").contains(0, 1, 2, 3, 4, 5, 6).allMatch(i -> i < 12);
        assertThat(closed).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void anErrorInACheckIsThrownAsItWasOnceTheOtherWorkersEnded() {
        Set<Integer> closed = ConcurrentHashMap.newKeySet();
        AtomicInteger running = new AtomicInteger();
        class Broken extends Error {
            Broken() {
                super("broken");
            }
        }
        assertThatThrownBy(() -> OrderedPool.run(List.of(0, 1, 2, 3, 4, 5), 6, 3,
                n -> new OrderedPool.Worker<Void>() {
                    @Override
                    public void prepare(int item) {
                    }

                    @Override
                    public Void check(int item) throws Exception {
                        running.incrementAndGet();
                        try {
                            Thread.sleep(30);
                            if (item == 1) {
                                throw new Broken();
                            }
                            return null;
                        } finally {
                            running.decrementAndGet();
                        }
                    }

                    @Override
                    public void close() {
                        closed.add(n);
                    }
                })).isInstanceOf(Broken.class);
        assertThat(closed).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(running.get()).as("checks still running when the pool threw").isZero();
    }

    /**
     * The calling thread interrupted while the others check: they are interrupted too, waited for, and the pool
     * throws InterruptedIOException with the thread's interrupt kept.
     */
    @Test
    void theCallerInterruptedStopsEveryWorkerAndThrowsInterruptedIoException() throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicInteger interruptedChecks = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        Set<Integer> closed = ConcurrentHashMap.newKeySet();
        CountDownLatch allStarted = new CountDownLatch(3);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            order.add(i);
        }
        Thread caller = new Thread(() -> {
            try {
                OrderedPool.run(order, order.size(), 3, n -> new OrderedPool.Worker<Void>() {
                    @Override
                    public void prepare(int item) {
                    }

                    @Override
                    public Void check(int item) throws Exception {
                        started.incrementAndGet();
                        allStarted.countDown();
                        try {
                            Thread.sleep(60_000);
                        } catch (InterruptedException e) {
                            interruptedChecks.incrementAndGet();
                            throw e;
                        }
                        return null;
                    }

                    @Override
                    public void close() {
                        closed.add(n);
                    }
                });
            } catch (Throwable t) {
                thrown.set(t);
                thrown.get().addSuppressed(new Exception("interrupt kept: " + Thread.currentThread().isInterrupted()));
            }
        });
        caller.start();
        assertThat(allStarted.await(10, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();
        caller.join(10_000);
        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(InterruptedIOException.class);
        assertThat(thrown.get().getSuppressed()).extracting(Throwable::getMessage).contains("interrupt kept: true");
        assertThat(interruptedChecks.get()).isEqualTo(3);
        assertThat(started.get()).as("items taken").isEqualTo(3);
        assertThat(closed).containsExactlyInAnyOrder(0, 1, 2);
    }
}

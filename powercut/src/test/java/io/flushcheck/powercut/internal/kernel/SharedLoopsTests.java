package io.flushcheck.powercut.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Workers of one job sharing the machine's loop devices: one that finds none free waits while another of the job
 * holds one, and gets the one released; with none held by the job, no free device fails at once. A pure unit test:
 * the kernel's devices are a counter here (taking the machine's real ones would starve everything else on it).
 */
class SharedLoopsTests {

    /** A machine with {@code free} loop devices. */
    private static final class Machine implements SharedLoops.Attach {
        final AtomicInteger free;
        final AtomicInteger attempts = new AtomicInteger();

        Machine(int free) {
            this.free = new AtomicInteger(free);
        }

        @Override
        public String attach(Path file) throws IOException {
            attempts.incrementAndGet();
            int left = free.get();
            if (left <= 0 || !free.compareAndSet(left, left - 1)) {
                throw new LoopDevices.NoFreeLoopDevice("no free loop device for " + file);
            }
            return "/dev/loop" + left;
        }

        void detach() {
            free.incrementAndGet();
        }
    }

    @Test
    void aWorkerFindingNoneFreeWaitsForAnotherWorkersDeviceAndGetsIt() throws Exception {
        Machine machine = new Machine(1);
        SharedLoops loops = new SharedLoops(machine);
        String first = loops.attach(Path.of("/a"));
        assertThat(loops.held()).isEqualTo(1);
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> {
            try {
                return loops.attach(Path.of("/b"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (machine.attempts.get() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(50);
        assertThat(second).as("waiting while the first worker holds the only device").isNotDone();
        machine.detach();
        loops.release();
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(first);
        assertThat(loops.held()).isEqualTo(1);
    }

    @Test
    void withNoneHeldByTheJobNoFreeDeviceFailsAtOnce() {
        Machine machine = new Machine(0);
        SharedLoops loops = new SharedLoops(machine);
        assertThatThrownBy(() -> loops.attach(Path.of("/a"))).isInstanceOf(LoopDevices.NoFreeLoopDevice.class)
                .hasMessageContaining("/a");
        assertThat(machine.attempts.get()).isEqualTo(1);
        assertThat(loops.held()).isZero();
    }

    /** A device released between a failed attempt and the look at what the job holds is tried again, not lost. */
    @Test
    void aReleaseDuringAFailedAttemptIsTriedAgain() throws Exception {
        SharedLoops[] loops = new SharedLoops[1];
        AtomicInteger calls = new AtomicInteger();
        loops[0] = new SharedLoops(file -> {
            if (calls.incrementAndGet() == 2) {
                loops[0].release(); // the job's only device comes back while this attempt fails
                throw new LoopDevices.NoFreeLoopDevice("none free for " + file);
            }
            return "/dev/loop0";
        });
        loops[0].attach(Path.of("/a"));
        assertThat(loops[0].attach(Path.of("/b"))).isEqualTo("/dev/loop0");
        assertThat(calls.get()).isEqualTo(3);
    }

    @Test
    void aWaitingWorkerInterruptedStopsWaiting() throws Exception {
        SharedLoops loops = new SharedLoops(new Machine(1));
        loops.attach(Path.of("/a"));
        Throwable[] thrown = new Throwable[1];
        Thread waiting = new Thread(() -> {
            try {
                loops.attach(Path.of("/b"));
            } catch (IOException e) {
                thrown[0] = e;
            }
        });
        waiting.start();
        Thread.sleep(50);
        waiting.interrupt();
        waiting.join(10_000);
        assertThat(waiting.isAlive()).isFalse();
        assertThat(thrown[0]).isInstanceOf(java.io.InterruptedIOException.class).hasMessageContaining("/b");
    }
}

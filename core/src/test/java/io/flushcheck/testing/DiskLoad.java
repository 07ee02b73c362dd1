package io.flushcheck.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Other work on a disk while a test probes, until closed: a thread of this JVM that overwrites one
 * block and fdatasyncs it ({@link #thread}), or fio jobs in a process of their own that append and
 * fdatasync ({@link #fio}). Each sync costs the disk a cache flush. Both work in a fresh directory,
 * removed with everything in it on close.
 */
public final class DiskLoad implements AutoCloseable {

    private final Path dir;
    private final AtomicLong syncs = new AtomicLong();
    private volatile boolean stop;
    private volatile IOException failure;
    private long pauseNanos;
    private Thread thread;
    private Process fio;

    private DiskLoad(Path parent) throws IOException {
        dir = Files.createTempDirectory(parent, "disk-load-");
    }

    /**
     * One thread of this JVM syncing a block under {@code parent}, pausing {@code pauseMicros} after
     * each sync: 0 is as fast as the disk allows, which saturates it.
     */
    public static DiskLoad thread(Path parent, long pauseMicros) throws IOException {
        DiskLoad load = new DiskLoad(parent);
        load.pauseNanos = pauseMicros * 1000;
        load.thread = new Thread(load::syncLoop, "disk-load");
        load.thread.setDaemon(true);
        load.thread.start();
        return load;
    }

    /** {@code jobs} fio jobs under {@code parent}, each appending 4 KiB and fdatasyncing, for at most 5 minutes. */
    public static DiskLoad fio(Path parent, int jobs) throws IOException {
        Requirements.requireCommand("fio", "fio");
        DiskLoad load = new DiskLoad(parent);
        load.fio = new ProcessBuilder(List.of("fio", "--name=flushcheck-load", "--directory=" + load.dir, "--rw=write",
                "--bs=4k", "--size=4m", "--fdatasync=1", "--numjobs=" + jobs, "--time_based", "--runtime=300"))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        // fio lays out its files before it syncs; the load is on once they exist.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (load.files() < jobs && load.fio.isAlive() && System.nanoTime() < deadline) {
            sleep(20);
        }
        sleep(200);
        if (!load.fio.isAlive()) {
            load.close();
            throw new IOException("fio exited with " + load.fio.exitValue() + " before the test ran");
        }
        return load;
    }

    private long files() {
        try (var s = Files.list(dir)) {
            return s.count();
        } catch (IOException e) {
            return 0;
        }
    }

    private void syncLoop() {
        ByteBuffer block = ByteBuffer.allocateDirect(4096);
        try (FileChannel ch = FileChannel.open(dir.resolve("block"), StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            while (!stop) {
                block.rewind();
                ch.write(block, 0);
                ch.force(false);
                syncs.incrementAndGet();
                if (pauseNanos > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(pauseNanos);
                }
            }
        } catch (IOException e) {
            failure = e;
        }
    }

    /** Waits until the thread has synced {@code n} times: the load is running, not starting. */
    public DiskLoad awaitSyncs(long n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread != null && syncs.get() < n && System.nanoTime() < deadline && failure == null) {
            sleep(5);
        }
        return this;
    }

    /** Syncs done so far by the thread; -1 for fio, which reports none while it runs. */
    public long syncs() {
        return thread == null ? -1 : syncs.get();
    }

    /** True while the load still runs. */
    public boolean running() {
        return thread != null ? thread.isAlive() : fio.isAlive();
    }

    @Override
    public void close() {
        stop = true;
        try {
            if (thread != null) {
                thread.join(10_000);
            }
            if (fio != null) {
                fio.destroy();
                if (!fio.waitFor(10, TimeUnit.SECONDS)) {
                    fio.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (failure != null) {
            throw new UncheckedIOException("the disk load failed", failure);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

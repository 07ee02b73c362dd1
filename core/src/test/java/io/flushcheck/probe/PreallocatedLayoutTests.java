package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.flushcheck.testing.ProbeLeftovers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file a writing mode syncs, as it is on disk at each of its syncs: with {@link ProbePlan#preallocate()},
 * fio's layout for {@code --rw=write} (the whole file allocated and sized up front, written from its start in
 * blocks of the plan's size); without it, a file that grows by one block a round.
 */
class PreallocatedLayoutTests {

    private static final int BLOCK = 2300;
    private static final int ROUNDS = 12;

    @TempDir(factory = BuildDirTempDirs.class)
    Path dir;

    /** What the real file held at one sync: its size, the bytes allocated to it, and its contents. */
    private record AtSync(int writes, long size, long allocated, byte[] contents) {
    }

    /** The real calls, looking at the synced file on disk through the process's descriptor at every fdatasync. */
    private static final class Watching extends ForwardingSyncCalls {
        final List<AtSync> seen = new ArrayList<>();
        final List<Long> writes = new ArrayList<>();
        Boolean preallocated;

        @Override
        public boolean preallocate(int fd, long length) {
            preallocated = real.preallocate(fd, length);
            return preallocated;
        }

        @Override
        public long write(int fd, Pointer buffer, long count) {
            writes.add(count);
            return real.write(fd, buffer, count);
        }

        @Override
        public void fdatasync(int fd) {
            real.fdatasync(fd);
            Path file = Path.of("/proc/self/fd/" + fd);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                ByteBuffer all = ByteBuffer.allocate((int) ch.size());
                while (all.hasRemaining() && ch.read(all) >= 0) {
                    // reads the whole file
                }
                seen.add(new AtSync(writes.size(), ch.size(), allocatedBytes(fd), all.array()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The bytes the filesystem has allocated to the file open as {@code fd} in this process, by stat(1). */
    private static long allocatedBytes(int fd) throws IOException {
        String open = "/proc/" + ProcessHandle.current().pid() + "/fd/" + fd;
        Process p = new ProcessBuilder("stat", "-L", "-c", "%b %B", open).redirectErrorStream(true).start();
        String[] out = new String(p.getInputStream().readAllBytes()).trim().split(" ");
        try {
            assertThat(p.waitFor()).as(String.join(" ", out)).isZero();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return Long.parseLong(out[0]) * Long.parseLong(out[1]);
    }

    private static Watching run(Path dir, boolean preallocate) {
        return run(dir, new ProbePlan(List.of(SyncMode.APPEND_FDATASYNC), BLOCK, ROUNDS, false, 0, preallocate));
    }

    private static Watching run(Path dir, ProbePlan plan) {
        Watching calls = new Watching();
        List<SyncCost> costs = SyncProbe.with(calls, null, null).run(dir, plan, ProbeListener.NONE);
        assertThat(costs).singleElement().extracting(SyncCost::rounds).isEqualTo(ROUNDS);
        return calls;
    }

    @Test
    void aPreallocatedFileHasItsWholeSizeAllocatedAndIsWrittenFromItsStartOneBlockASync() {
        checkLayout(run(dir, true), (long) ROUNDS * BLOCK);
    }

    /**
     * fio's job of a size that is no multiple of its block size ({@code fio --rw=write --size=SIZE --bs=2300}) lays out
     * the whole size and writes the whole blocks that fit: the probe's file is that size at every sync, its tail
     * never written.
     */
    @Test
    void aFioJobsFileHasItsWholeSizeAndOnlyTheWholeBlocksThatFitAreWritten() {
        long size = (long) ROUNDS * BLOCK + BLOCK - 1;
        ProbePlan plan = ProbePlan.fioWrite(SyncMode.APPEND_FDATASYNC, size, BLOCK, 0);
        assertThat(plan.rounds()).isEqualTo(ROUNDS);
        checkLayout(run(dir, plan), size);
    }

    private void checkLayout(Watching calls, long whole) {
        Assumptions.assumeFalse(Boolean.FALSE.equals(calls.preallocated),
                "the filesystem of " + dir + " cannot preallocate (fallocate(2) is not supported there)");
        byte[] block;
        try (Memory m = new Memory(BLOCK)) {
            calls.fill(m, BLOCK);
            block = m.getByteArray(0, BLOCK);
        }
        assertThat(calls.writes).as("one write of the plan's block per round").hasSize(ROUNDS)
                .containsOnly((long) BLOCK);
        assertThat(calls.seen).hasSize(ROUNDS);
        for (AtSync at : calls.seen) {
            assertThat(at.size()).as("the size at sync %d: the whole file's from the start", at.writes())
                    .isEqualTo(whole);
            assertThat(at.allocated()).as("allocated at sync %d: every byte, not a sparse file", at.writes())
                    .isGreaterThanOrEqualTo(whole);
            int written = at.writes() * BLOCK;
            for (int i = 0; i < at.contents().length; i++) {
                if (at.contents()[i] != (i < written ? block[i % BLOCK] : 0)) {
                    throw new AssertionError("at sync " + at.writes() + ", byte " + i + " is " + at.contents()[i]
                            + ": the rounds' blocks are written in turn from offset 0, the rest reads as zeros");
                }
            }
        }
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }

    @Test
    void withoutPreallocationTheFileGrowsByOneBlockASync() {
        Watching calls = run(dir, false);
        assertThat(calls.preallocated).as("fallocate(2) is not called").isNull();
        assertThat(calls.seen).extracting(AtSync::size)
                .containsExactlyElementsOf(calls.seen.stream().map(a -> (long) a.writes() * BLOCK).toList());
        assertThat(calls.seen).extracting(AtSync::writes).endsWith(ROUNDS);
    }
}

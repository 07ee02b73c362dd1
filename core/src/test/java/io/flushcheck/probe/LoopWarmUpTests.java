package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Pointer;
import io.flushcheck.testing.ProbeLeftovers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A mode of many rounds first runs its loop on files that reach no disk, so that the JIT compiles it before the
 * measured rounds: every warm-up write and sync goes to such a file, each is closed, the measured rounds are the
 * plan's and come after, and a mode warms up once per probe and not at all when its rounds are few. Real calls: the
 * rounds on files in /dev/shm, the warm-up on memfd_create(2) files.
 */
class LoopWarmUpTests {

    /** On tmpfs: the rounds' syncs cost nothing there either, and a test of thousands of rounds stays quick. */
    private Path dir;

    /** The real calls, telling apart the warm-up's files (open scratch files) from the probe's. */
    private static final class Watching extends ForwardingSyncCalls {
        final Set<Integer> openScratch = new HashSet<>();
        int scratchMade;
        int warmUpWrites;
        int warmUpSyncs;
        int roundSyncs;
        int roundWrites;
        /** Warm-up calls made after the first sync of a probe file. */
        int warmUpAfterRounds;

        @Override
        public int scratchFile() {
            int fd = real.scratchFile();
            if (fd >= 0) {
                openScratch.add(fd);
                scratchMade++;
                // What a scratch file is: no path on any filesystem, memory only.
                assertThat(Path.of("/proc/self/fd/" + fd)).satisfies(p -> assertThat(readLink(p)).startsWith("/memfd:"));
            }
            return fd;
        }

        private static String readLink(Path p) {
            try {
                return Files.readSymbolicLink(p).toString();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private boolean warm(int fd) {
            boolean w = openScratch.contains(fd);
            if (w && roundSyncs > 0) {
                warmUpAfterRounds++;
            }
            return w;
        }

        @Override
        public long write(int fd, Pointer buffer, long count) {
            if (warm(fd)) {
                warmUpWrites++;
            } else {
                roundWrites++;
            }
            return real.write(fd, buffer, count);
        }

        @Override
        public void fdatasync(int fd) {
            if (warm(fd)) {
                warmUpSyncs++;
            } else {
                roundSyncs++;
            }
            real.fdatasync(fd);
        }

        @Override
        public void close(int fd) {
            openScratch.remove(fd);
            real.close(fd);
        }
    }

    private Watching calls;

    @BeforeEach
    void scratchFilesExist() throws java.io.IOException {
        Path shm = Path.of("/dev/shm");
        Assumptions.assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "no writable /dev/shm here");
        dir = Files.createTempDirectory(shm, "warm-up-tests");
        calls = new Watching();
        int fd = calls.real.scratchFile();
        Assumptions.assumeTrue(fd >= 0, "no memfd_create(2) here: the probe runs unwarmed");
        calls.real.close(fd);
    }

    @AfterEach
    void removeDirectory() throws java.io.IOException {
        if (dir != null) {
            assertThat(ProbeLeftovers.in(dir)).isEmpty();
            Files.delete(dir);
        }
    }

    private static ProbePlan plan(int rounds) {
        return new ProbePlan(List.of(SyncMode.APPEND_FDATASYNC), ProbePlan.MIN_BLOCK, rounds, false, 0, true);
    }

    @Test
    void aModeOfManyRoundsWarmsUpOnScratchFilesFirstAndOnlyOnce() {
        int rounds = SyncProbe.WARM_UP_FROM_ROUNDS;
        SyncProbe probe = SyncProbe.with(calls, null, null);
        List<SyncCost> costs = probe.run(dir, plan(rounds), ProbeListener.NONE);

        assertThat(costs).singleElement().extracting(SyncCost::rounds).isEqualTo(rounds);
        assertThat(calls.roundSyncs).as("the measured rounds' syncs, on the probe file").isEqualTo(rounds);
        assertThat(calls.roundWrites).isEqualTo(rounds);
        assertThat(calls.warmUpSyncs).as("the warm-up's syncs, all on scratch files")
                .isGreaterThanOrEqualTo(SyncProbe.WARM_UP_ROUNDS);
        assertThat(calls.warmUpWrites).isEqualTo(calls.warmUpSyncs);
        assertThat(calls.warmUpAfterRounds).as("warm-up calls once the rounds had begun").isZero();
        assertThat(calls.openScratch).as("scratch files left open").isEmpty();
        int made = calls.scratchMade;

        probe.run(dir, plan(rounds), ProbeListener.NONE);
        assertThat(calls.scratchMade).as("a mode warmed up once is not warmed up again").isEqualTo(made);
        assertThat(calls.roundSyncs).isEqualTo(2 * rounds);
    }

    @Test
    void aModeOfFewRoundsDoesNotWarmUp() {
        SyncProbe.with(calls, null, null).run(dir, plan(SyncProbe.WARM_UP_FROM_ROUNDS - 1), ProbeListener.NONE);
        assertThat(calls.scratchMade).isZero();
        assertThat(calls.roundSyncs).isEqualTo(SyncProbe.WARM_UP_FROM_ROUNDS - 1);
    }
}

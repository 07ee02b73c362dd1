package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Pointer;
import io.flushcheck.testing.ProbeLeftovers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Probe files: created exclusively with mode 0600 inside the directory, never through a symlink,
 * and removed whatever happens. The real native calls do the work; a thin decorator around them
 * looks at the file the moment it exists, or plants what an attacker would.
 */
class ProbeFileHygieneTests {

    private static final ProbePlan PLAN = new ProbePlan(List.of(SyncMode.OVERWRITE_FDATASYNC, SyncMode.APPEND_FSYNC,
            SyncMode.APPEND_FDATASYNC, SyncMode.DSYNC, SyncMode.FLUSH_ONLY, SyncMode.NO_SYNC), 4096, 8, false, 2);

    @TempDir(factory = BuildDirTempDirs.class)
    Path dir;

    private SyncCalls real;

    @BeforeEach
    void load() {
        real = NativeSyncCalls.load();
    }

    /** Decorates the real calls; hooks run around createExclusive and the syncs. */
    private class Watching implements SyncCalls {
        final List<String> created = new ArrayList<>();
        final List<String> seen = new ArrayList<>();
        final List<String> registeredBefore = new ArrayList<>();
        int failSyncAt = -1;
        int syncs;

        void beforeCreate(String path) throws IOException {
        }

        @Override
        public int createExclusive(String path, boolean dsync) {
            try {
                beforeCreate(path);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            // At the syscall the name must already be in the registry, so that a shutdown at any
            // instant of it, or just after, finds the file.
            registeredBefore.add((OwnFiles.isRegistered(Path.of(path)) ? "registered" : "not registered")
                    + (Files.exists(Path.of(path), LinkOption.NOFOLLOW_LINKS) ? ", existing" : ", not existing"));
            int fd = real.createExclusive(path, dsync);
            created.add(path);
            try {
                Path p = Path.of(path);
                PosixFileAttributes a = Files.readAttributes(p, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                seen.add(p.getParent() + " " + (a.isRegularFile() ? "regular" : "not regular") + " "
                        + PosixFilePermissions.toString(a.permissions()) + " " + p.getFileName().toString()
                        .replaceAll("^\\.flushcheck-\\d+-([a-z-]+)-[0-9a-f]{12}\\.probe$", "$1"));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            return fd;
        }

        @Override
        public long pwrite(int fd, Pointer buffer, long count, long offset) {
            return real.pwrite(fd, buffer, count, offset);
        }

        @Override
        public long write(int fd, Pointer buffer, long count) {
            return real.write(fd, buffer, count);
        }

        @Override
        public void fsync(int fd) {
            sync();
            real.fsync(fd);
        }

        @Override
        public void fdatasync(int fd) {
            sync();
            real.fdatasync(fd);
        }

        private void sync() {
            if (++syncs == failSyncAt) {
                throw new NativeCallException("fdatasync", 5, "Input/output error");
            }
        }

        @Override
        public void fullFsync(int fd) {
            real.fullFsync(fd);
        }

        @Override
        public void barrierFsync(int fd) {
            real.barrierFsync(fd);
        }

        @Override
        public void close(int fd) {
            real.close(fd);
        }
    }

    @Test
    void everyProbeFileIsARegular0600FileInsideTheDirectoryAndIsRemoved() {
        Watching calls = new Watching();
        List<SyncCost> costs = SyncProbe.with(calls, null, null).run(dir, PLAN, ProbeListener.NONE);
        assertThat(costs).hasSize(6);
        assertThat(calls.seen).containsExactly(
                dir + " regular rw------- overwrite-fdatasync",
                dir + " regular rw------- append-fsync",
                dir + " regular rw------- append-fdatasync",
                dir + " regular rw------- dsync",
                dir + " regular rw------- flush-only",
                dir + " regular rw------- no-sync");
        assertThat(calls.created).allSatisfy(p -> assertThat(Path.of(p)).doesNotExist());
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
        assertThat(OwnFiles.live()).isZero();
    }

    @Test
    void everyProbeFileIsRegisteredBeforeItIsCreated() {
        Watching calls = new Watching();
        SyncProbe.with(calls, null, null).run(dir, PLAN, ProbeListener.NONE);
        assertThat(calls.registeredBefore).hasSize(6).containsOnly("registered, not existing");
        assertThat(OwnFiles.live()).isZero();
    }

    @Test
    void aFileThatWasThereIsLeftAloneAndForgotten() {
        List<Path> planted = new ArrayList<>();
        Watching planting = new Watching() {
            @Override
            void beforeCreate(String path) throws IOException {
                planted.add(Files.writeString(Path.of(path), "someone else's"));
            }
        };
        assertThatThrownBy(() -> SyncProbe.with(planting, null, null).run(dir, PLAN, ProbeListener.NONE))
                .isInstanceOf(NativeCallException.class).hasMessageEndingWith("failed: File exists (errno 17)");
        assertThat(planted).singleElement().satisfies(p -> assertThat(Files.readString(p)).isEqualTo("someone else's"));
        assertThat(OwnFiles.live()).isZero();
    }

    @Test
    void theJavaForceFileIsAlso0600() throws Exception {
        List<String> perms = new ArrayList<>();
        Thread watcher = new Thread(() -> {
            long end = System.nanoTime() + 20_000_000_000L;
            while (perms.isEmpty() && System.nanoTime() < end) {
                for (String n : ProbeLeftovers.in(dir)) {
                    try {
                        perms.add(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(n),
                                LinkOption.NOFOLLOW_LINKS)));
                    } catch (IOException e) {
                        // removed meanwhile; try again
                    }
                }
            }
        });
        watcher.start();
        ProbePlan javaForce = PLAN.withModes(List.of(SyncMode.JAVA_FORCE)).withRounds(2000);
        SyncProbe probe = SyncProbe.with(real, null, null);
        while (watcher.isAlive()) {
            probe.run(dir, javaForce, ProbeListener.NONE);
        }
        watcher.join();
        assertThat(perms).isNotEmpty().allSatisfy(p -> assertThat(p).isEqualTo("rw-------"));
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
    }

    @Test
    void createExclusiveRefusesAnExistingFile() throws IOException {
        Path existing = Files.writeString(dir.resolve("existing"), "keep me");
        assertThatThrownBy(() -> real.createExclusive(existing.toString(), false))
                .isInstanceOf(NativeCallException.class)
                .hasMessage("open(" + existing + ") failed: File exists (errno 17)")
                .extracting(e -> ((NativeCallException) e).errno()).isEqualTo(17);
        assertThat(Files.readString(existing)).isEqualTo("keep me");
    }

    @Test
    void createExclusiveNeverFollowsASymlink(@TempDir Path outside) throws IOException {
        Path target = outside.resolve("victim");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertThatThrownBy(() -> real.createExclusive(link.toString(), false))
                .isInstanceOf(NativeCallException.class)
                .hasMessage("open(" + link + ") failed: File exists (errno 17)");
        assertThat(target).doesNotExist();

        Files.writeString(target, "secret");
        assertThatThrownBy(() -> real.createExclusive(link.toString(), true))
                .hasMessage("open(" + link + ") failed: File exists (errno 17)");
        assertThat(Files.readString(target)).isEqualTo("secret");
    }

    @Test
    void aSymlinkPlantedUnderTheProbeNameIsNotWrittenThrough(@TempDir Path outside) {
        Path target = outside.resolve("victim");
        Watching planting = new Watching() {
            @Override
            void beforeCreate(String path) throws IOException {
                Files.createSymbolicLink(Path.of(path), target);
            }
        };
        assertThatThrownBy(() -> SyncProbe.with(planting, null, null).run(dir, PLAN, ProbeListener.NONE))
                .isInstanceOf(NativeCallException.class)
                .satisfies(e -> assertThat(e.getMessage()).matches("open\\(" + java.util.regex.Pattern.quote(dir.toString())
                        + "/\\.flushcheck-\\d+-overwrite-fdatasync-[0-9a-f]{12}\\.probe\\) failed: File exists \\(errno 17\\)"));
        assertThat(target).doesNotExist();
        assertThat(OwnFiles.live()).isZero();
    }

    @Test
    void aSyncFailingMidLoopStillRemovesTheFile() {
        Watching failing = new Watching();
        failing.failSyncAt = 4; // the preallocation fsync, then the third round's fdatasync
        assertThatThrownBy(() -> SyncProbe.with(failing, null, null).run(dir, PLAN, ProbeListener.NONE))
                .isInstanceOf(NativeCallException.class)
                .hasMessage("fdatasync failed: Input/output error (errno 5)");
        assertThat(failing.created).hasSize(1);
        assertThat(ProbeLeftovers.in(dir)).isEmpty();
        assertThat(OwnFiles.live()).isZero();
    }

    @Test
    void aDirectoryThatIsGoneGivesTheErrno() {
        Path gone = dir.resolve("gone");
        assertThatThrownBy(() -> SyncProbe.with(real, null, null).run(gone, PLAN, ProbeListener.NONE))
                .isInstanceOf(NativeCallException.class)
                .hasMessageEndingWith("failed: No such file or directory (errno 2)");
        assertThat(OwnFiles.live()).isZero();
    }
}

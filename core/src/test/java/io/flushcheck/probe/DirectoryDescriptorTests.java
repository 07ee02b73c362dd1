package io.flushcheck.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.jna.Platform;
import io.flushcheck.storage.MountTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Linux descriptor calls: the mount of an open directory by statx and by fdinfo, and files made relative to it. */
class DirectoryDescriptorTests {

    private SyncCalls real;
    private Path dir;

    @BeforeEach
    void linuxOnly() throws IOException {
        Assumptions.assumeTrue(Platform.isLinux(), "directory descriptors are used on Linux only");
        real = NativeSyncCalls.load();
        dir = Files.createDirectories(Path.of("target", "descriptor-tests").toAbsolutePath());
    }

    @Test
    void statxAndFdinfoNameTheMountMountinfoGivesTheDirectory() {
        int fd = real.openDirectory(dir.toString());
        try {
            long expected = MountTable.live().mountOf(dir.toString()).mountId();
            assertThat(NativeSyncCalls.fdinfoMountId(fd)).isEqualTo(expected);
            long statx = NativeSyncCalls.statxMountId(fd);
            assertThat(statx).as("statx: STATX_MNT_ID since Linux 5.8").isEqualTo(since58() ? expected : -1L);
            assertThat(real.mountIdOf(fd)).isEqualTo(expected);
        } finally {
            real.close(fd);
        }
    }

    private static boolean since58() {
        String[] v = System.getProperty("os.version").split("[.-]");
        int major = Integer.parseInt(v[0]);
        return major > 5 || major == 5 && Integer.parseInt(v[1]) >= 8;
    }

    @Test
    void filesAreMadeAndRemovedInTheDirectoryHeldWhateverItsNameBecomes() throws IOException {
        Path held = Files.createDirectories(dir.resolve("held"));
        Path moved = dir.resolve("held-moved");
        Files.deleteIfExists(moved);
        try (ProbeDirectory opened = ProbeDirectory.open(real, held)) {
            Files.move(held, moved);
            Files.createDirectory(held);
            Path file = held.resolve(".flushcheck-test-file");
            real.close(opened.create(file, false));
            assertThat(moved.resolve(".flushcheck-test-file")).exists();
            assertThat(file).doesNotExist();
            assertThatThrownBy(() -> opened.create(file, false)).isInstanceOf(NativeCallException.class)
                    .hasMessage("open(" + file + ") failed: File exists (errno 17)");
            assertThat(opened.remove(file)).isTrue();
            assertThat(opened.remove(file)).isFalse();
            assertThat(moved.resolve(".flushcheck-test-file")).doesNotExist();
        } finally {
            Files.deleteIfExists(held);
            Files.deleteIfExists(moved);
        }
    }
}

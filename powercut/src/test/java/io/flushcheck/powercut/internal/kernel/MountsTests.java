package io.flushcheck.powercut.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A filesystem the kernel has no driver for (ENODEV, as where its module is absent) is told apart from a filesystem
 * that refuses to mount: the first is the machine's lack, which a check of crash states reports once, before any
 * state, and never as a state that failed.
 */
class MountsTests {

    @Test
    void aTypeTheKernelLacksIsAnUnmountableType(@TempDir Path dir) {
        Requirements.requireRoot();
        assertThatThrownBy(() -> Mounts.mount("none", dir, "flushcheckfs", List.of(), Mounts.FOREIGN_DATA))
                .isInstanceOf(UnmountableTypeException.class).hasMessageContaining("flushcheckfs");
    }

    @Test
    void aDeviceTheKernelCannotMountIsAnotherFailure(@TempDir Path dir) {
        Requirements.requireRoot();
        // A regular file is no block device: ENOTBLK, the state's failure to mount, not the machine's lack.
        assertThatThrownBy(() -> Mounts.mount(dir.toString(), dir, "ext4", List.of(), Mounts.DATA))
                .isInstanceOf(IOException.class).isNotInstanceOf(UnmountableTypeException.class);
    }

    @Test
    void aFilesystemWithAFileOpenIsNotUnmountedAndAnIdleOneIs(@TempDir Path dir) throws IOException {
        Requirements.requireRoot();
        Path target = Files.createDirectory(dir.resolve("t"));
        Mounts.mount("tmpfs", target, "tmpfs", List.of("size=1m"), Mounts.DATA);
        try {
            Path file = Files.writeString(target.resolve("f"), "x");
            try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
                assertThat(Mounts.unmountIfIdle(target)).isFalse();
                assertThat(Mounts.mountedAt(target, "tmpfs")).isTrue();
            }
            assertThat(Mounts.unmountIfIdle(target)).isTrue();
            assertThat(Mounts.mountedAt(target, "tmpfs")).isFalse();
        } finally {
            Mounts.unmountLazy(target);
        }
    }
}

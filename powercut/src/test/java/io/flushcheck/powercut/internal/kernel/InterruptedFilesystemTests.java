package io.flushcheck.powercut.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interrupted filesystem is read without being written: once access times are stopped on its mount, listing a
 * directory leaves the directory's access time as it was, and the mount keeps its other flags.
 */
class InterruptedFilesystemTests {

    @Test
    void aListingAfterAccessTimesStopChangesNoAccessTimeAndTheMountKeepsItsFlags(@TempDir Path dir) throws IOException {
        Requirements.requireRoot();
        Path target = Files.createDirectory(dir.resolve("t"));
        Mounts.mount("tmpfs", target, "tmpfs", List.of("size=1m"), Mounts.DATA);
        try {
            Path sub = Files.createDirectory(target.resolve("d"));
            Files.writeString(sub.resolve("f"), "x");
            FileTime old = FileTime.fromMillis(1_000_000_000_000L);
            Files.setAttribute(sub, "lastAccessTime", old);
            InterruptedFilesystem.stopAccessTimes(target);
            try (Stream<Path> names = Files.list(sub)) {
                assertThat(names).hasSize(1);
            }
            assertThat(Files.getAttribute(sub, "lastAccessTime")).as("the listed directory's access time")
                    .isEqualTo(old);
            assertThat(mountOptions(target)).as("the mount's own options").contains("noatime", "nosuid", "nodev", "noexec");
        } finally {
            Mounts.unmountLazy(target);
        }
    }

    /** The per-mount options of the filesystem at {@code target}, from this process's mountinfo. */
    private static List<String> mountOptions(Path target) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
            String[] f = line.split(" ");
            if (f[4].equals(target.toString())) {
                return List.of(f[5].split(","));
            }
        }
        throw new AssertionError(target + " is not in /proc/self/mountinfo");
    }
}

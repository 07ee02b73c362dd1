package io.flushcheck.powercut.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interrupted filesystem, an ext4 on a loop device here: it is held only when it is the one on the disk's device,
 * it is read without access times being written (the mount keeping its other flags), and once shut down its open
 * files fail with EIO.
 */
class InterruptedFilesystemTests {

    @TempDir
    Path dir;
    private String loop;
    private Path target;

    @BeforeEach
    void mountExt4() throws IOException {
        Requirements.requireRoot();
        Requirements.requireCommand("mkfs.ext4", "e2fsprogs");
        Path image = dir.resolve("image");
        try (RandomAccessFile f = new RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(16 << 20);
        }
        Shell.run("mkfs.ext4", "-q", "-F", image.toString());
        loop = LoopDevices.attach(image, false);
        target = Files.createDirectory(dir.resolve("t"));
        Mounts.mount(loop, target, "ext4", List.of(), Mounts.DATA);
    }

    @AfterEach
    void unmount() throws IOException {
        if (target != null) {
            Mounts.unmountLazy(target);
        }
        if (loop != null) {
            LoopDevices.detach(loop);
        }
    }

    @Test
    void onlyTheFilesystemOnTheDisksDeviceIsHeld() {
        try (InterruptedFilesystem none = InterruptedFilesystem.open(dir, loop)) {
            assertThat(none).as("the directory the mount point is in: another filesystem").isNull();
        }
        try (InterruptedFilesystem held = InterruptedFilesystem.open(target, loop)) {
            assertThat(held).isNotNull();
        }
    }

    @Test
    void aListingAfterAccessTimesStopChangesNoAccessTimeAndTheMountKeepsItsFlags() throws IOException {
        Path sub = Files.createDirectory(target.resolve("d"));
        Files.writeString(sub.resolve("f"), "x");
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setAttribute(sub, "lastAccessTime", old);
        try (InterruptedFilesystem fs = InterruptedFilesystem.open(target, loop)) {
            Requirements.require(fs.stopAccessTimes(), "mount_setattr(2) (Linux 5.12)");
        }
        try (Stream<Path> names = Files.list(sub)) {
            assertThat(names).hasSize(1);
        }
        assertThat(Files.getAttribute(sub, "lastAccessTime")).as("the listed directory's access time").isEqualTo(old);
        assertThat(mountOptions(target)).as("the mount's own options").contains("noatime", "nosuid", "nodev", "noexec");
    }

    @Test
    void aFileOpenOnTheFilesystemFailsWithEioOnceItIsShutDown() throws IOException {
        Path file = Files.writeString(target.resolve("f"), "data");
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            try (InterruptedFilesystem fs = InterruptedFilesystem.open(target, loop)) {
                Requirements.require(fs.shutDown(), "FS_IOC_SHUTDOWN on ext4");
            }
            assertThatThrownBy(() -> open.write(ByteBuffer.wrap(new byte[] {1}), 0)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            assertThatThrownBy(() -> open.force(true)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
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

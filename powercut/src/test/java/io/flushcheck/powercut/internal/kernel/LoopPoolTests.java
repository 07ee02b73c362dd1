package io.flushcheck.powercut.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import io.flushcheck.testing.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the loop devices from /sys/block, and saying why none was free: on fixtures and on this machine. */
class LoopPoolTests {

    /** A /sys/block with loop0..loop{n-1}, the given ones bound to backing files, and a disk that is no loop. */
    private static Path sysBlock(Path dir, int n, Map<Integer, String> bound) throws IOException {
        Path block = Files.createDirectories(dir.resolve("block"));
        Files.createDirectories(block.resolve("vda"));
        for (int i = 0; i < n; i++) {
            Path dev = Files.createDirectories(block.resolve("loop" + i));
            if (bound.containsKey(i)) {
                Files.writeString(Files.createDirectories(dev.resolve("loop")).resolve("backing_file"), bound.get(i) + "\n");
            }
        }
        return block;
    }

    @Test
    void aPoolWhoseEveryDeviceHasABackingFileIsExhaustedAndTheMessageNamesThem(@TempDir Path dir) throws IOException {
        Map<Integer, String> bound = new TreeMap<>();
        for (int i = 0; i < 8; i++) {
            bound.put(i, "/work/wt-" + i + "/disk.img");
        }
        Files.writeString(dir.resolve("max_loop"), "8\n");
        LoopPool pool = LoopPool.read(sysBlock(dir, 8, bound), dir.resolve("max_loop"));
        assertThat(pool.devices()).hasSize(8);
        assertThat(pool.inUse()).isEqualTo(8);
        assertThat(pool.exhausted()).isTrue();
        assertThat(pool.maxLoop()).isEqualTo(8);
        assertThat(pool.explain(Path.of("/dev/shm/x/drive/disk.img")))
                .startsWith("no free loop device for /dev/shm/x/drive/disk.img: 8 loop devices exist (max_loop=8) and 8 are in use"
                        + " (loop0 by /work/wt-0/disk.img, loop1 by /work/wt-1/disk.img, ")
                .contains("loop7 by /work/wt-7/disk.img)")
                .doesNotContain("\n");
    }

    @Test
    void aPoolWithOneFreeDeviceIsNotExhausted(@TempDir Path dir) throws IOException {
        Map<Integer, String> bound = new TreeMap<>();
        for (int i = 0; i < 12; i++) {
            if (i != 10) {
                bound.put(i, "/img" + i);
            }
        }
        LoopPool pool = LoopPool.read(sysBlock(dir, 12, bound), dir.resolve("no-such-parameter"));
        assertThat(pool.devices()).extracting(LoopPool.Device::name).startsWith("loop0", "loop1", "loop2").contains("loop11")
                .as("by number, not by name").endsWith("loop10", "loop11");
        assertThat(pool.inUse()).isEqualTo(11);
        assertThat(pool.exhausted()).isFalse();
        assertThat(pool.maxLoop()).isNull();
        assertThat(pool.explain(Path.of("/i"))).contains("12 loop devices exist and 11 are in use");
    }

    @Test
    void aDeviceAttachedHereIsReadInUseWithItsFile() throws IOException {
        Requirements.requireRoot();
        Requirements.requireCommand("losetup", "mount");
        Path image = Path.of("/dev/shm", "flushcheck-looppool-" + ProcessHandle.current().pid() + ".img");
        String device = null;
        try {
            Shell.run("truncate", "-s", "1M", image.toString());
            device = Shell.run("losetup", "--find", "--show", image.toString()).trim();
            String name = Path.of(device).getFileName().toString();
            LoopPool pool = LoopPool.current();
            assertThat(pool.devices()).as("/sys/block").contains(new LoopPool.Device(name, image.toString()));
            assertThat(pool.inUse()).isPositive();
            assertThat(pool.explain(Path.of("/x"))).contains(name + " by " + image);
        } finally {
            if (device != null) {
                Shell.run("losetup", "--detach", device);
            }
            Files.deleteIfExists(image);
        }
    }
}

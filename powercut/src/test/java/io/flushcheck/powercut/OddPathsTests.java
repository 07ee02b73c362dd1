package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A disk made in a directory whose name holds a space, a newline, a percent sign or letters beyond ASCII
 * works on both models: the drives' server is told every path whole, and finds its mounts in the mount
 * table, where the kernel writes such names escaped.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class OddPathsTests {

    @TempDir
    Path scratch;

    static Stream<Arguments> disks() {
        return Stream.of("sp ace", "new\nline", "50%20off", "ünïcødé").flatMap(name -> Stream.of(
                Arguments.of(name, "block"), Arguments.of(name, "file")));
    }

    @ParameterizedTest(name = "{1} model in \"{0}\"")
    @MethodSource("disks")
    void aDiskInAnOddlyNamedDirectoryKeepsWhatWasSynced(String name, String model) throws IOException {
        Path dir = Files.createDirectories(scratch.resolve(name));
        Path work;
        try (SimulatedDisk disk = model.equals("block") ? TestDisks.ext4(dir) : TestDisks.files(dir)) {
            work = disk.path().getParent();
            assertThat(work.toString()).contains(name);
            Path f = disk.path().resolve("synced");
            Files.writeString(f, "kept");
            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            try (FileChannel ch = FileChannel.open(disk.path(), StandardOpenOption.READ)) {
                ch.force(true);
            }
            Path survivor = disk.cutPower();
            assertThat(survivor.resolve("synced")).hasContent("kept");
        }
        assertThat(work).as("the disk's directory after close").doesNotExist();
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(scratch.toString());
    }
}

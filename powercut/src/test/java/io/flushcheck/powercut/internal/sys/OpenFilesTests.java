package io.flushcheck.powercut.internal.sys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The processes holding files under a directory, as {@code /proc} tells of this process's own files. */
class OpenFilesTests {

    private static final String SELF = String.valueOf(ProcessHandle.current().pid());

    @TempDir
    Path tmp;

    @Test
    void aFileOpenUnderADirectoryNamedThroughALinkIsFound() throws IOException {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        Path file = Files.writeString(real.resolve("f"), "x");
        assertThat(OpenFiles.under(link)).noneMatch(l -> l.startsWith(SELF + " "));
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(OpenFiles.under(link)).contains(SELF + " " + file.toRealPath());
        }
    }

    @Test
    void aFileMappedAfterItsChannelClosedIsFound() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("mapped"));
        Path file = Files.write(dir.resolve("f"), new byte[8192]);
        MappedByteBuffer map;
        try (FileChannel open = FileChannel.open(file, StandardOpenOption.READ)) {
            map = open.map(FileChannel.MapMode.READ_ONLY, 0, 8192);
        }
        assertThat(OpenFiles.under(dir)).contains(SELF + " " + file.toRealPath() + " (mapped)");
        assertThat(map.get(0)).isZero(); // kept reachable until here, so the mapping stays
    }

    @Test
    void aDirectoryThatCannotBeReadIsAnError() {
        assertThatThrownBy(() -> OpenFiles.under(tmp.resolve("absent"))).isInstanceOf(IOException.class);
    }
}

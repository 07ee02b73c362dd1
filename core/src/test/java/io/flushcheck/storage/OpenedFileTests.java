package io.flushcheck.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Files anyone may have put in place of a document, opened for real on this machine's filesystem. */
class OpenedFileTests {

    @TempDir
    Path dir;

    @Test
    void theFileOpenedIsReadEvenAfterItsNameNamesAnother() throws IOException {
        Path file = Files.writeString(dir.resolve("a"), "first");
        try (OpenedFile opened = OpenedFile.open(file)) {
            Files.move(file, dir.resolve("moved"));
            Files.writeString(file, "second, longer");
            ByteBuffer buf = ByteBuffer.allocate(64);
            opened.channel().read(buf, 0);
            assertThat(new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8)).isEqualTo("first");
            assertThat(opened.path()).isEqualTo(file);
        }
    }

    @Test
    void aLinkADirectoryADeviceAndAMissingFileAreRefusedByKind() throws IOException {
        Path target = Files.writeString(dir.resolve("target"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertRefused(link, OpenedFile.Kind.SYMBOLIC_LINK, link + " is not a regular file: a symbolic link");
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertRefused(sub, OpenedFile.Kind.DIRECTORY, sub + " is not a regular file: a directory");
        assertRefused(Path.of("/dev/null"), OpenedFile.Kind.OTHER, "/dev/null is not a regular file: a FIFO, socket or device");
        Path missing = dir.resolve("missing");
        assertRefused(missing, OpenedFile.Kind.MISSING, missing + " is missing");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a hang guard only
    void aFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0).as("mkfifo").isTrue();
        assertRefused(fifo, OpenedFile.Kind.OTHER, fifo + " is not a regular file: a FIFO, socket or device");
    }

    private static void assertRefused(Path path, OpenedFile.Kind kind, String message) {
        assertThatThrownBy(() -> OpenedFile.open(path).close())
                .isInstanceOfSatisfying(OpenedFile.NotRegularException.class, e -> assertThat(e.kind()).isEqualTo(kind))
                .hasMessage(message);
    }
}

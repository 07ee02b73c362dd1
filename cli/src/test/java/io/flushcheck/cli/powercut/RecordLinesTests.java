package io.flushcheck.cli.powercut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The records files a program writes are read as hostile input: a regular file only, opened once. */
class RecordLinesTests {

    @TempDir
    Path tmp;

    @Test
    void linesAreReadTheLastWithoutItsNewlineToo() throws IOException {
        Path f = Files.write(tmp.resolve("read"), "row 1\nrow 2\nrow 3".getBytes(StandardCharsets.UTF_8));
        assertThat(RecordLines.read(f, "VERIFY's $FLUSHCHECK_READ")).containsExactly("row 1", "row 2", "row 3");
        assertThat(RecordLines.read(tmp.resolve("none"), "VERIFY's $FLUSHCHECK_READ")).isNull();
    }

    @Test
    void aSymbolicLinkInItsPlaceIsNotFollowed() throws IOException {
        Path secret = Files.writeString(tmp.resolve("secret"), "not the program's\n");
        Path link = Files.createSymbolicLink(tmp.resolve("read"), secret);
        assertThatThrownBy(() -> RecordLines.read(link, "VERIFY's $FLUSHCHECK_READ")).isInstanceOf(IOException.class)
                .hasMessageStartingWith("VERIFY's $FLUSHCHECK_READ (" + link + ") is not a regular file");
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a FIFO open blocks
    void aFifoInItsPlaceIsRefusedWithoutWaitingForAWriter() throws Exception {
        Path fifo = tmp.resolve("read");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(p.waitFor()).isZero();
        assertThatThrownBy(() -> RecordLines.read(fifo, "VERIFY's $FLUSHCHECK_READ")).isInstanceOf(IOException.class)
                .hasMessageContaining("is not a regular file");
    }
}

package io.flushcheck.powercut;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Requirements;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agreement corpus's {@code kvserver.py}, on a plain directory: it answers every request, and each answer
 * says the connection ends with it, so that no client sends a request on a connection the server closed.
 */
class KvServerTests {

    @TempDir
    Path tmp;

    private Process server;
    private int port;

    @BeforeEach
    void start() throws IOException {
        Requirements.require(Files.isExecutable(Path.of(AgreementCorpus.PYTHON)), AgreementCorpus.PYTHON
                + " (apt-get install python3)");
        Path script = tmp.resolve("kvserver.py");
        try (InputStream in = getClass().getResourceAsStream("kvserver.py")) {
            Files.copy(in, script);
        }
        server = new ProcessBuilder(AgreementCorpus.PYTHON, script.toString(), tmp.toString())
                .redirectError(tmp.resolve("err").toFile()).start();
        String line = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        assertThat(line).as("the port kvserver.py prints: %s", Files.readString(tmp.resolve("err"))).isNotNull();
        port = Integer.parseInt(line);
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.destroyForcibly().waitFor();
    }

    @Test
    void aStoredPutIsAnsweredWith204AndTheEndOfTheConnection() throws IOException {
        String answer = exchange("PUT /k1 HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\nvalue 1");
        assertThat(answer).startsWith("HTTP/1.0 204 ").containsIgnoringCase("\r\nConnection: close\r\n");
        assertThat(tmp.resolve("server/data/log")).hasContent("k1=value 1");
    }

    @Test
    void aPutItCannotStoreIsAnsweredWithTheReason() throws IOException {
        String answer = exchange("PUT /k1 HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.0 411 ").containsIgnoringCase("\r\nConnection: close\r\n")
                .contains("a PUT needs a Content-Length");
        assertThat(tmp.resolve("server/data/log")).isEmptyFile();
    }

    /** Sends {@code request} on a connection of its own and returns all the server sends before it closes. */
    private String exchange(String request) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package io.flushcheck.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * {@link LoopbackHttp} against servers that behave as small test servers do: an HTTP/1.0 server that closes each
 * connection a moment after its response without saying so (Python's {@code http.server} does, and may be
 * descheduled in between), and one that closes without answering.
 */
class LoopbackHttpTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void eachRequestIsAnsweredWhenTheServerClosesItsConnectionsLateWithoutSayingSo() throws Exception {
        // The server closes each connection 100 ms after its answer: a client that sends the next request on
        // a connection it kept finds it closed, with no answer, every time.
        try (Server server = new Server(100, "HTTP/1.0 204 No Content\r\nServer: test\r\n\r\n")) {
            LoopbackHttp http = new LoopbackHttp(server.port(), TIMEOUT);
            for (int i = 1; i <= 5; i++) {
                assertThat(http.send("PUT", "/k" + i, "value " + i).status()).as("PUT %d", i).isEqualTo(204);
            }
            assertThat(server.requests()).hasSize(5).allSatisfy(r -> assertThat(r).startsWith("PUT /k"));
        }
    }

    @Test
    void aConnectionClosedWithoutAnAnswerIsReportedWithTheRequest() throws Exception {
        try (Server server = new Server(0, "")) {
            LoopbackHttp http = new LoopbackHttp(server.port(), TIMEOUT);
            assertThatThrownBy(() -> http.send("PUT", "/k1", "value 1")).isInstanceOf(IOException.class)
                    .hasMessage("127.0.0.1:" + server.port() + " closed the connection without a response to PUT /k1");
        }
    }

    @Test
    void theAnswersStatusAndBodyAreReturned() throws Exception {
        String answer = "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 9\r\nConnection: close\r\n\r\nno space!";
        try (Server server = new Server(0, answer)) {
            LoopbackHttp.Response r = new LoopbackHttp(server.port(), TIMEOUT).send("PUT", "/k1", "value 1");
            assertThat(r.status()).isEqualTo(500);
            assertThat(r.body()).isEqualTo("no space!");
        }
    }

    /** Answers every request on a connection with {@code answer}, then closes it {@code lingerMillis} later. */
    private static final class Server implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<String> requests = new CopyOnWriteArrayList<>();
        private final Thread thread;

        Server(long lingerMillis, String answer) throws IOException {
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        requests.add(readRequest(s.getInputStream()));
                        OutputStream out = s.getOutputStream();
                        out.write(answer.getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        Thread.sleep(lingerMillis);
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                }
            }, "loopback-http-test-server");
            thread.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        List<String> requests() {
            return requests;
        }

        /** The request's head and its body, as far as Content-Length says. */
        private static String readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the request ended in its head");
                }
                head.write(b);
            }
            String text = head.toString(StandardCharsets.US_ASCII);
            int length = 0;
            for (String line : text.split("\r\n")) {
                if (line.toLowerCase().startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring(15).trim());
                }
            }
            return text + new String(in.readNBytes(length), StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws Exception {
            socket.close();
            thread.join();
        }
    }
}

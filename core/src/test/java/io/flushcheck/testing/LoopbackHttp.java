package io.flushcheck.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * HTTP/1.1 to a server on this machine's loopback, each request on a connection of its own that says
 * {@code Connection: close}, its response read to the end.
 *
 * <p>A test's server may close a connection after any response without saying so (an HTTP/1.0 server such as
 * Python's {@code http.server} does), or go away with the power: a client that keeps connections, as the JDK's
 * {@code HttpClient} does, may send the next request on one the server has already closed, and gets no response
 * at all. A connection used once cannot be one the server closed before the request.
 */
public final class LoopbackHttp {

    /** A response's status and body. */
    public record Response(int status, String body) {
    }

    private final int port;
    private final int timeoutMillis;

    /** Requests to {@code 127.0.0.1:port}, each given {@code timeout} to connect and between reads. */
    public LoopbackHttp(int port, Duration timeout) {
        this.port = port;
        this.timeoutMillis = Math.toIntExact(timeout.toMillis());
    }

    /**
     * Sends {@code method path} with {@code body} and returns the response.
     *
     * @throws IOException when the server closes the connection without a response (the message names the
     *                     request), or does not answer within the timeout
     */
    public Response send(String method, String path, String body) throws IOException {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        String head = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Length: "
                + content.length + "\r\nConnection: close\r\n\r\n";
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
            s.setSoTimeout(timeoutMillis);
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(content);
            out.flush();
            byte[] response = readToEnd(s.getInputStream());
            if (response.length == 0) {
                throw new IOException("127.0.0.1:" + port + " closed the connection without a response to " + method
                        + " " + path);
            }
            return parse(response, method + " " + path);
        }
    }

    /** Everything the server sends until it closes: the request said the connection ends with the response. */
    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try {
            in.transferTo(all);
        } catch (IOException e) {
            if (all.size() == 0) {
                // a reset instead of a close: still no response
                return new byte[0];
            }
            throw e;
        }
        return all.toByteArray();
    }

    private Response parse(byte[] response, String request) throws IOException {
        String text = new String(response, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        String[] lines = (end < 0 ? text : text.substring(0, end)).split("\r\n");
        String[] status = lines[0].split(" ", 3);
        if (end < 0 || status.length < 2 || !status[0].startsWith("HTTP/") || !status[1].matches("\\d{3}")) {
            throw new IOException("127.0.0.1:" + port + " answered " + request + " with no HTTP response head: "
                    + text.substring(0, Math.min(text.length(), 200)));
        }
        int bodyStart = end + 4;
        int bodyEnd = response.length;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i].toLowerCase(Locale.ROOT);
            if (line.startsWith("transfer-encoding:") && line.contains("chunked")) {
                throw new IOException("127.0.0.1:" + port + " answered " + request + " in chunks, which this client"
                        + " does not read");
            }
            if (line.startsWith("content-length:")) {
                String length = line.substring(15).trim();
                if (!length.matches("\\d{1,9}")) {
                    throw new IOException("127.0.0.1:" + port + " answered " + request + " with Content-Length " + length);
                }
                bodyEnd = Math.min(bodyEnd, bodyStart + Integer.parseInt(length));
            }
        }
        return new Response(Integer.parseInt(status[1]),
                new String(response, bodyStart, bodyEnd - bodyStart, StandardCharsets.UTF_8));
    }
}

package io.flushcheck.postgres;

import io.flushcheck.powercut.ProcessWorld;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A PostgreSQL server on one data directory, in a {@link ProcessWorld} of its own (its workers, shared
 * memory and IPC end with it), listening on a free loopback port only, and a JDBC connection to it.
 */
final class Server implements AutoCloseable {

    /** How a world is started: at once, or as one that dies with a simulated disk's power. */
    interface Starter {
        ProcessWorld start(ProcessBuilder builder) throws IOException;
    }

    private final ProcessWorld world;
    private final Path log;
    private final int port;

    private Server(ProcessWorld world, Path log, int port) {
        this.world = world;
        this.log = log;
        this.port = port;
    }

    /**
     * Starts the server on {@code data} with {@code settings} ({@code name=value} each) and waits up to
     * {@code timeoutMillis} for it to answer.
     *
     * @throws IOException with the server's last words when it does not answer in time
     */
    static Server start(PostgresInstallation pg, Path data, List<String> settings, Starter starter, long timeoutMillis)
            throws IOException {
        int port = freePort();
        List<String> argv = new ArrayList<>(List.of(pg.program("postgres"), "-D", data.toString(), "-p", String.valueOf(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="));
        for (String s : settings) {
            argv.add("-c");
            argv.add(s);
        }
        Path log = Files.createTempFile("flushcheck-postgres-", ".log");
        ProcessWorld world;
        try {
            world = starter.start(new ProcessBuilder(pg.asServerUser(argv)).redirectErrorStream(true).redirectOutput(log.toFile()));
            world.process().getOutputStream().close();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(log);
            throw e;
        }
        Server server = new Server(world, log, port);
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try (Connection c = server.connect()) {
                return server;
            } catch (SQLException e) {
                if (!world.isAlive() || System.currentTimeMillis() > deadline) {
                    String why = (world.isAlive() ? "did not answer within " + timeoutMillis / 1000 + " s"
                            : "exited " + world.process().exitValue()) + ": " + server.lastWords();
                    server.close();
                    throw new IOException("PostgreSQL on " + data + " " + why);
                }
                sleep(20);
            }
        }
    }

    /** A connection as the cluster's superuser, which trust authentication lets in. */
    Connection connect() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", PostgresInstallation.USER);
        p.setProperty("connectTimeout", "5");
        p.setProperty("socketTimeout", "60");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", p);
    }

    /** The last lines the server wrote, joined with " | ". */
    String lastWords() {
        try {
            List<String> lines = new ArrayList<>();
            for (String l : Files.readString(log, StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank()) {
                    lines.add(l.strip());
                }
            }
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Shuts the server down cleanly (SIGTERM: a smart shutdown, no client being left) and waits for its
     * world to end.
     *
     * @throws IOException when it was still running after 60 s (it is killed then)
     */
    void stop() throws IOException {
        try {
            if (!world.terminate(60, java.util.concurrent.TimeUnit.SECONDS)) {
                throw new IOException("PostgreSQL did not shut down within 60 s: " + lastWords());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while PostgreSQL shut down", e);
        }
    }

    /** Ends the server's world: every process of it killed and reaped. */
    @Override
    public void close() {
        world.kill();
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            // a temporary file
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for PostgreSQL", e);
        }
    }
}

package io.flushcheck.postgres;

import io.flushcheck.powercut.LoggedWorld;
import io.flushcheck.powercut.ProcessWorld;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server on one data directory, in a {@link ProcessWorld} of its own (its workers, shared
 * memory and IPC end with it), listening on a free loopback port only, and a JDBC connection to it.
 */
final class Server implements AutoCloseable {

    private static final int LAST_WORDS = 3;

    private final LoggedWorld world;
    private final int port;

    private Server(LoggedWorld world, int port) {
        this.world = world;
        this.port = port;
    }

    /**
     * Starts the server on {@code data} with {@code settings} ({@code name=value} each) and waits up to
     * {@code timeoutMillis} for it to answer.
     *
     * @throws IOException with the server's last words when it does not answer in time
     */
    static Server start(PostgresInstallation pg, Path data, List<String> settings, LoggedWorld.Starter starter,
                        long timeoutMillis) throws IOException {
        int port = freePort();
        List<String> argv = new ArrayList<>(List.of(pg.program("postgres"), "-D", data.toString(), "-p", String.valueOf(port),
                "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="));
        for (String s : settings) {
            argv.add("-c");
            argv.add(s);
        }
        Server server = new Server(LoggedWorld.start(pg.asServerUser(argv), starter), port);
        ProcessWorld world = server.world.world();
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (true) {
            try (Connection c = server.connect()) {
                return server;
            } catch (SQLException e) {
                if (!world.isAlive() || System.currentTimeMillis() > deadline) {
                    String why = (world.isAlive() ? "did not answer within " + timeoutMillis / 1000 + " s"
                            : "exited " + world.process().exitValue()) + ": " + server.world.tail(LAST_WORDS);
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

    /**
     * Shuts the server down cleanly (SIGTERM: a smart shutdown, no client being left) and waits for its
     * world to end.
     *
     * @throws IOException when it was still running after 60 s (it is killed then)
     */
    void stop() throws IOException {
        try {
            if (!world.world().terminate(60, TimeUnit.SECONDS)) {
                throw new IOException("PostgreSQL did not shut down within 60 s: " + world.tail(LAST_WORDS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while PostgreSQL shut down", e);
        }
    }

    /** Ends the server's world: every process of it killed and reaped. */
    @Override
    public void close() {
        world.close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
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

package io.flushcheck.postgres;

import io.flushcheck.powercut.ProcessWorld;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A fresh cluster made once (initdb, trust authentication, 1 MiB WAL segments so that a copy is small),
 * holding the table the workload commits to ({@code t}, an integer primary key), and shut down cleanly:
 * each cut starts from a copy of it.
 */
final class TemplateCluster implements AutoCloseable {

    static final String TABLE = "t";

    private final Path dir;

    private TemplateCluster(Path dir) {
        this.dir = dir;
    }

    static TemplateCluster make(PostgresInstallation pg) throws IOException, SQLException {
        Path dir = Files.createTempDirectory("flushcheck-pg-template-");
        TemplateCluster t = new TemplateCluster(dir);
        try {
            Path data = t.data();
            Files.createDirectory(data);
            pg.own(dir);
            PostgresInstallation.run(pg.asServerUser(List.of(pg.program("initdb"), "-D", data.toString(), "-A", "trust",
                    "-U", PostgresInstallation.USER, "--no-sync", "--wal-segsize=1", "-E", "UTF8", "--no-locale")));
            try (Server s = Server.start(pg, data, List.of(), ProcessWorld::start, 60_000)) {
                try (Connection c = s.connect(); Statement st = c.createStatement()) {
                    st.execute("create table " + TABLE + " (id integer primary key)");
                }
                s.stop();
            }
            return t;
        } catch (IOException | SQLException | RuntimeException e) {
            t.close();
            throw e;
        }
    }

    /** The cluster's data directory. */
    Path data() {
        return dir.resolve("data");
    }

    /** Copies the cluster to {@code target} (which must not exist), owner and modes kept. */
    void copyTo(Path target) throws IOException {
        PostgresInstallation.run(List.of("cp", "-a", data().toString(), target.toString()));
    }

    @Override
    public void close() {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the template cluster " + dir, e);
        }
    }
}

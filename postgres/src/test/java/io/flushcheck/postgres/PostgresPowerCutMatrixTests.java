package io.flushcheck.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Debian's PostgreSQL under power cuts, through the matrix: with its defaults nothing acknowledged is lost
 * and every cut recovers; an asynchronous commit whose WAL writer waits long loses recent commits and
 * still recovers; with fsync off the commits since the cluster was copied are lost.
 */
@ResourceLock(SimulatedPowerLoss.LOCK)
class PostgresPowerCutMatrixTests {

    private static PostgresInstallation requirePostgres() throws Exception {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
        Requirements.require(PostgresInstallation.newestUnder(PostgresInstallation.DEBIAN_ROOT) != null,
                "PostgreSQL's server (apt-get install postgresql)");
        return PostgresInstallation.find(null);
    }

    @Test
    void theDefaultsLoseNothingAnAsynchronousCommitLosesRecentOnesAndFsyncOffLosesCommits() throws Exception {
        PostgresInstallation pg = requirePostgres();
        List<List<String>> rows = List.of(List.of(), List.of("synchronous_commit=off", "wal_writer_delay=10s"),
                List.of("fsync=off"));
        List<String> progress = new ArrayList<>();
        long t0 = System.nanoTime();
        List<PostgresPowerCutMatrix.Row> r = PostgresPowerCutMatrix.run(Path.of("target", "pg-matrix").toAbsolutePath(), pg,
                rows, 3, 19, (settings, cut, cuts, seed, acknowledged, survived, recovered) ->
                        progress.add(Settings.describe(settings) + " " + cut + "/" + cuts + ": " + survived + " of " + acknowledged
                                + (recovered ? "" : " (did not recover)")));
        System.out.printf("PostgreSQL matrix, 3 cuts a row, %.1f s:%n%s%s%n", (System.nanoTime() - t0) / 1e9,
                PostgresPowerCutMatrix.table(r), String.join("\n", progress));
        assertThat(progress).hasSize(9);

        PostgresPowerCutMatrix.Row defaults = r.get(0);
        assertThat(defaults.acknowledged()).isGreaterThanOrEqualTo(3L * PostgresPowerCutMatrix.MIN_COMMITS);
        assertThat(defaults.lost()).as("acknowledged commits lost with the defaults").isZero();
        assertThat(defaults.recovered()).isEqualTo(3);

        PostgresPowerCutMatrix.Row async = r.get(1);
        assertThat(async.lost()).as("an asynchronous commit loses what the WAL writer had not flushed").isPositive();
        assertThat(async.recovered()).as("and the cluster stays consistent").isEqualTo(3);

        PostgresPowerCutMatrix.Row noFsync = r.get(2);
        assertThat(noFsync.lost()).as("fsync off").isPositive();
        assertThat(Path.of("target", "pg-matrix")).as("each disk removed with its directory").doesNotExist();
    }
}

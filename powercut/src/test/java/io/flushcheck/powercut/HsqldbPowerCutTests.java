package io.flushcheck.powercut;

import static io.flushcheck.powercut.FixtureRuns.message;
import static io.flushcheck.powercut.FixtureRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.testing.Mounts;
import io.flushcheck.testing.Requirements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.Events;

/**
 * HSQLDB 2.7.4, a real embedded store, with {@code hsqldb.write_delay=false}: it syncs its log at every commit,
 * so it survives every power cut (the acknowledgements it makes after the cut, with its syncs failing, do not
 * count); and it logs a failed sync and acknowledges commits all the same, so it fails {@link FailingSyncs},
 * naming the rows it acknowledged after the drive's failure.
 */
// On JUnit 6, ProgramDeathTests drives the same extensions the same way, without HSQLDB's 20 s (see
// RerunOnJunit6Tests).
@Tag("junit-api-as:io.flushcheck.powercut.ProgramDeathTests")
class HsqldbPowerCutTests {

    private static final int ROWS = 12;

    @BeforeEach
    void needs() {
        Mounts.requireMountTools();
        Requirements.require(Files.exists(Path.of("/dev/fuse")), "/dev/fuse");
    }

    private static String url(Path dir) {
        return "jdbc:hsqldb:file:" + dir.resolve("db") + ";hsqldb.write_delay=false;shutdown=false";
    }

    /** Commits ROWS rows, one per transaction, each acknowledged when its commit returned; then checks the survivor. */
    static void commitsSurvive(SimulatedDisk disk) throws Exception {
        String url = url(disk.path());
        AcknowledgedRecords acks = disk.untilPowerCut(acknowledged -> {
            try (Connection c = DriverManager.getConnection(url, "SA", "")) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
                }
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?)")) {
                    for (int i = 1; i <= ROWS; i++) {
                        insert.setInt(1, i);
                        insert.executeUpdate(); // autocommit: returns once the log is synced
                        acknowledged.add("row " + i);
                    }
                }
            } catch (SQLException refused) {
                // HSQLDB reported the failure: nothing more is acknowledged
            }
        });
        Path survivor = disk.cutPower();
        shutDown(url);
        List<String> survived = new ArrayList<>();
        String again = url(survivor);
        try (Connection c = DriverManager.getConnection(again + ";ifexists=true", "SA", "");
             Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT id FROM t")) {
                while (r.next()) {
                    survived.add("row " + r.getInt(1));
                }
            }
        } catch (SQLException noTableOrNoDatabase) {
            // nothing of it survived; assertDurable names what was acknowledged
        } finally {
            shutDown(again);
        }
        acks.assertDurable(survived);
    }

    /** The database on the cut disk closes its files (what it writes goes nowhere), so that the disk can go. */
    private static void shutDown(String url) {
        try (Connection c = DriverManager.getConnection(url + ";ifexists=true", "SA", "");
             Statement s = c.createStatement()) {
            s.execute("SHUTDOWN IMMEDIATELY");
        } catch (SQLException e) {
            // gone already
        }
    }

    @Test
    void withWriteDelayFalseEveryAcknowledgedCommitSurvivesEveryCrashPoint() {
        Events events = run(Fixtures.PowerCuts.class);
        assertThat(events.failed().count()).as("%s", events.failed().stream().map(FixtureRuns::message).toList())
                .isZero();
        assertThat(events.succeeded().count()).isGreaterThanOrEqualTo(8);
    }

    @Test
    void itAcknowledgesCommitsAfterItsLogSyncFailedAndLosesThem() {
        Events events = run(Fixtures.FailingSyncs.class);
        assertThat(events.failed().count()).isPositive();
        assertThat(events.failed().stream().map(FixtureRuns::message)).anySatisfy(m -> assertThat(m)
                .contains("acknowledged records did not survive the cut")
                .contains("acknowledged after the drive had failed a sync")
                .contains("the program carried on after its storage reported an error"));
    }

    static class Fixtures {

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 64)
        static class PowerCuts {
            @RepeatedPowerCut(times = 12, seed = 7)
            void everyAcknowledgedCommitSurvives(SimulatedDisk disk) throws Exception {
                commitsSurvive(disk);
            }
        }

        @SimulatedPowerLoss(model = DiskModel.BLOCK, sizeMiB = 64)
        static class FailingSyncs {
            @io.flushcheck.powercut.FailingSyncs(sweep = true)
            void everyAcknowledgedCommitSurvives(SimulatedDisk disk) throws Exception {
                commitsSurvive(disk);
            }
        }
    }
}

package io.flushcheck.junitfloor;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.JunitFloor;
import io.flushcheck.jupiter.MeasureSyncCost;
import io.flushcheck.jupiter.RequiresRealFlush;
import io.flushcheck.powercut.FailingSyncs;
import io.flushcheck.powercut.RepeatedPowerCut;
import io.flushcheck.powercut.SimulatedDisk;
import io.flushcheck.powercut.SimulatedPowerLoss;
import io.flushcheck.sqlite.MeasureSqliteCommits;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Run only by this module's execution on a JUnit below the floor (the pom's {@code below-the-floor}): there, each
 * of flushcheck's extensions refuses to start with one message naming the version found and the one needed.
 * Not named as a test, so that the executions on the floor itself do not run it.
 */
class BelowJunitFloorCheck {

    @Test
    void eachExtensionRefusesAJunitBelowTheFloorNamingBothVersions() {
        String found = ExtensionContext.class.getPackage().getImplementationVersion();
        assertThat(found).as("this execution's junit-jupiter-api").isNotNull().doesNotStartWith(JunitFloor.JUPITER)
                .doesNotStartWith("6.");
        Class<?>[] fixtures = {RealFlush.class, SyncCost.class, SqliteCommits.class, PowerLoss.class, PowerCuts.class,
            FailedSyncs.class};
        List<Throwable> failures = LauncherRuns.failuresOf(fixtures);
        assertThat(failures).as("the failures of the fixtures, one per extension").hasSize(fixtures.length)
                .allSatisfy(t -> assertThat(t).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessageContaining("junit-jupiter-api " + found)
                .hasMessageContaining("JUnit Jupiter " + JunitFloor.JUPITER + " or later"));
    }

    @RequiresRealFlush
    static class RealFlush {
        @Test
        void nothing() {
        }
    }

    @MeasureSyncCost
    static class SyncCost {
        @Test
        void nothing() {
        }
    }

    @MeasureSqliteCommits
    static class SqliteCommits {
        @Test
        void nothing() {
        }
    }

    @SimulatedPowerLoss
    static class PowerLoss {
        @Test
        void nothing(SimulatedDisk disk) {
        }
    }

    static class PowerCuts {
        @RepeatedPowerCut
        void nothing(SimulatedDisk disk) {
        }
    }

    static class FailedSyncs {
        @FailingSyncs
        void nothing(SimulatedDisk disk) {
        }
    }
}

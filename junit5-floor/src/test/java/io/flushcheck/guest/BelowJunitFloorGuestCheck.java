package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.JunitFloor;
import io.flushcheck.junitfloor.LauncherRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run only by this module's execution on a JUnit below the floor (the pom's {@code below-the-floor}), beside
 * {@code BelowJunitFloorCheck}: there, the launcher-based guest entries refuse to start with one message naming the
 * version found and the one needed, the suite on the host ({@link GuestSuite}) and the runner in each place
 * ({@link GuestMain}). Not named as a test, so that the executions on the floor itself do not run it.
 */
class BelowJunitFloorGuestCheck {

    private final String found = Test.class.getPackage().getImplementationVersion();

    @AfterEach
    void clearProperties() {
        System.clearProperty(GuestMain.ENVIRONMENT_PROPERTY);
        System.clearProperty(GuestMain.DATA_DIR_PROPERTY);
    }

    @Test
    void theSuiteRefusesAJunitBelowTheFloorNamingBothVersions() {
        assertThat(found).as("this execution's junit-jupiter-api").isNotNull().doesNotStartWith(JunitFloor.JUPITER)
                .doesNotStartWith("6.");
        List<Throwable> failures = LauncherRuns.failuresOf(Suite.class);

        assertThat(failures).as("the failures of the suite's test factory").singleElement()
                .satisfies(t -> assertThat(t).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("junit-jupiter-api " + found)
                        .hasMessageContaining("JUnit Jupiter " + JunitFloor.JUPITER + " or later"));
    }

    @Test
    void theRunnerInAGuestRunsNoTestAndItsDocumentSaysWhyNamingBothVersions(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("result.json");

        int code = GuestMain.run(new String[] {"--environment", "below-the-floor", "--data", dir.toString(), "--out",
            out.toString(), "--tests", Nothing.class.getName()});

        assertThat(code).isZero();
        GuestProtocol doc = GuestProtocol.parse(Files.readString(out));
        assertThat(doc.tests()).as("tests run").isEmpty();
        assertThat(doc.errors()).singleElement().asString().contains("junit-jupiter-api " + found)
                .contains("JUnit Jupiter " + JunitFloor.JUPITER + " or later");
    }

    /** A suite that would run on the host only: no Docker needed to reach the floor's check. */
    static class Suite {
        @TestFactory
        Stream<DynamicTest> everywhere() {
            return GuestSuite.of(Nothing.class).images().dynamicTests();
        }
    }

    static class Nothing {
        @Test
        void nothing() {
        }
    }
}

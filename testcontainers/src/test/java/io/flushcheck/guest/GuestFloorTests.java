package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flushcheck.JunitFloor;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherFactory;
import org.testcontainers.DockerClientFactory;

/** The floors of the guest suites: the refusals' words, and the versions this build runs on, which pass. */
@Tag("junit-api") // reads the launcher's version: runs on JUnit 6 and on the floors too (RerunOnJunit6Tests)
class GuestFloorTests {

    @Test
    void aTestcontainersBelowTheFloorIsRefusedNamingBothVersions() {
        assertThat(GuestFloor.testcontainersRefusal("1.20.6")).isEqualTo("flushcheck's container guests need "
                + "Testcontainers 1.21 or later (2.0 included), but the test class path has"
                + " org.testcontainers:testcontainers 1.20.6: manage its version with"
                + " org.testcontainers:testcontainers-bom 1.21 or later");
        assertThat(GuestFloor.testcontainersRefusal("1.19.8")).contains("testcontainers 1.19.8");
        assertThat(GuestFloor.testcontainersRefusal("1.21.0")).isNull();
        assertThat(GuestFloor.testcontainersRefusal("2.0.5")).isNull();
        assertThat(GuestFloor.testcontainersRefusal(null)).as("a jar that names no version").isNull();
    }

    @Test
    void aLauncherBelowTheFloorIsRefusedNamingBothVersions() {
        assertThat(GuestFloor.launcherRefusal("1.11.4")).isEqualTo("flushcheck's guests need JUnit Platform 1.12 or "
                + "later (or JUnit 6), but the test class path has junit-platform-launcher 1.11.4: manage JUnit's versions"
                + " with org.junit:junit-bom 5.12 or later, which sets the launcher's too");
        assertThat(GuestFloor.launcherRefusal("1.12.2")).isNull();
        assertThat(GuestFloor.launcherRefusal("6.0.3")).isNull();
        assertThat(GuestFloor.launcherRefusal(null)).isNull();
    }

    @Test
    void theJunitAndTestcontainersThisBuildRunsOnAreReadFromTheirJarsAndPass() {
        assertThat(JunitFloor.version(DockerClientFactory.class)).as("testcontainers' version").matches("\\d+\\.\\d+.*");
        assertThat(JunitFloor.version(LauncherFactory.class)).as("junit-platform-launcher's version")
                .matches("\\d+\\.\\d+.*");
        assertThat(GuestFloor.suiteRefusal(true)).isNull();
        assertThat(GuestFloor.junitRefusal()).isNull();
    }
}

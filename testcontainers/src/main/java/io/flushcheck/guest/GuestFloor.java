package io.flushcheck.guest;

import io.flushcheck.JunitFloor;
import org.junit.platform.launcher.core.LauncherFactory;
import org.testcontainers.DockerClientFactory;

/**
 * The oldest JUnit and Testcontainers the guest suites run on, checked where they start: on the host by
 * {@link GuestSuite} (JUnit, and Testcontainers when it runs containers), in each place by {@link GuestMain} (JUnit,
 * whose launcher runs the classes there). Below a floor, one message names the version found and the one needed,
 * instead of a {@code NoSuchMethodError} from a call that no build tested. A version the jars do not name is not
 * refused.
 */
final class GuestFloor {

    /** The oldest Testcontainers supported (what Spring Boot 3.5 manages); 2.0 is newer. */
    static final String TESTCONTAINERS = "1.21";

    private GuestFloor() {
    }

    /** Why the JUnit or, with {@code containers}, the Testcontainers on this class path is too old, or null. */
    static String suiteRefusal(boolean containers) {
        String junit = junitRefusal();
        if (junit != null || !containers) {
            return junit;
        }
        return testcontainersRefusal(JunitFloor.version(DockerClientFactory.class));
    }

    /** Why the JUnit on this class path is too old: Jupiter's API (when there), the Platform's commons, its launcher. */
    static String junitRefusal() {
        String junit = JunitFloor.refusalFor(version("org.junit.jupiter.api.Test"),
                version("org.junit.platform.commons.support.AnnotationSupport"));
        return junit != null ? junit : launcherRefusal(JunitFloor.version(LauncherFactory.class));
    }

    /** Why this junit-platform-launcher is too old, or null. */
    static String launcherRefusal(String launcher) {
        if (!JunitFloor.below(launcher, JunitFloor.PLATFORM)) {
            return null;
        }
        return "flushcheck's guests need JUnit Platform " + JunitFloor.PLATFORM + " or later (or JUnit 6), but the test"
                + " class path has junit-platform-launcher " + launcher + ": manage JUnit's versions with"
                + " org.junit:junit-bom " + JunitFloor.JUPITER + " or later, which sets the launcher's too";
    }

    /** Why this Testcontainers is too old, or null. */
    static String testcontainersRefusal(String testcontainers) {
        if (!JunitFloor.below(testcontainers, TESTCONTAINERS)) {
            return null;
        }
        return "flushcheck's container guests need Testcontainers " + TESTCONTAINERS + " or later (2.0 included), but"
                + " the test class path has org.testcontainers:testcontainers " + testcontainers + ": manage its version"
                + " with org.testcontainers:testcontainers-bom " + TESTCONTAINERS + " or later";
    }

    /** The version of the jar the named class is in, or null when it is not on this class path or names none. */
    private static String version(String className) {
        try {
            return JunitFloor.version(Class.forName(className, false, GuestFloor.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}

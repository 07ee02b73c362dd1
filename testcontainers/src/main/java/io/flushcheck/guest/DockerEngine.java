package io.flushcheck.guest;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine can be reached, found the Testcontainers way; on machines that look like a
 * container themselves set {@code TESTCONTAINERS_RYUK_DISABLED=true} and
 * {@code TESTCONTAINERS_HOST_OVERRIDE=localhost}.
 */
final class DockerEngine {

    private DockerEngine() {
    }

    /** True when a Docker engine answers; never throws. */
    static boolean answers() {
        if (!anEngineMayBeConfigured()) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Cheap first look, since Testcontainers can spend minutes probing before it gives up: some socket,
     * DOCKER_HOST or a Testcontainers configuration must exist for an engine to be found at all.
     */
    private static boolean anEngineMayBeConfigured() {
        String home = System.getProperty("user.home", "");
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        return System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(home, ".testcontainers.properties"))
                || Files.exists(Path.of(home, ".docker", "run", "docker.sock"))
                || runtime != null && Files.exists(Path.of(runtime, "docker.sock"));
    }
}

package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

/**
 * A guest whose JVM dies halfway still leaves nothing behind: no container, no named volume, no bind
 * directory on the host. The failure is reported with its exit code and the missing result.
 */
class GuestCleanupTests {

    /** Runs in the guest: the JVM ends before any result is written, as a crash would end it. */
    static class DiesHalfway {

        @Test
        void exitsAbruptly() throws IOException {
            Files.writeString(Path.of(System.getProperty(GuestMain.DATA_DIR_PROPERTY)).resolve("half-written"), "x");
            Runtime.getRuntime().halt(7);
        }
    }

    @Test
    void aGuestThatDiesLeavesNoContainerVolumeOrDirectory(@TempDir Path hostDir) throws IOException {
        GuestTesting.requireDockerAndBaseImage();
        GuestRequest request = GuestRequest.tests(DiesHalfway.class).withHostDir(hostDir);
        DockerClient docker = DockerClientFactory.instance().client();
        for (MountKind mount : List.of(MountKind.VOLUME, MountKind.BIND)) {
            GuestEnvironment env = GuestEnvironment.guest(GuestImage.DEBIAN_BOOKWORM_JRE17, mount);
            // Compared with what was there before, so that an earlier crashed run's leftovers are not blamed here.
            Set<String> containersBefore = containers(docker, env);
            Set<String> volumesBefore = volumes(docker, env);

            GuestOutcome o = new GuestRunner(m -> { }).run(env, request);

            assertThat(o.ok()).as(o.failureReason()).isFalse();
            assertThat(o.exitCode()).as(o.failureReason()).isEqualTo(7);
            assertThat(o.failureReason()).contains(env.name() + ": the in-guest JVM exited with 7",
                    env.name() + ": no result file came back");
            assertThat(containers(docker, env)).as("containers of %s", env.name()).isEqualTo(containersBefore);
            assertThat(volumes(docker, env)).as("volumes of %s", env.name()).isEqualTo(volumesBefore);
            try (Stream<Path> left = Files.list(hostDir)) {
                assertThat(left).as("bind directories under %s", hostDir).isEmpty();
            }
        }
    }

    private static Set<String> containers(DockerClient docker, GuestEnvironment env) {
        Set<String> ids = new TreeSet<>();
        docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("io.flushcheck.guest", env.name())).exec()
                .forEach(c -> ids.add(c.getId()));
        return ids;
    }

    private static Set<String> volumes(DockerClient docker, GuestEnvironment env) {
        Set<String> names = new TreeSet<>();
        var found = docker.listVolumesCmd().withFilter("label", List.of("io.flushcheck.guest=" + env.name())).exec()
                .getVolumes();
        if (found != null) {
            found.forEach(v -> names.add(v.getName()));
        }
        return names;
    }
}

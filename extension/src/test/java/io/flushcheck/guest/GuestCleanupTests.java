package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        for (MountKind mount : List.of(MountKind.VOLUME, MountKind.BIND)) {
            GuestEnvironment env = GuestEnvironment.guest(GuestImage.DEBIAN_BOOKWORM_JRE17, mount);

            GuestOutcome o = new GuestRunner(m -> { }).run(env, request);

            assertThat(o.ok()).as(o.failureReason()).isFalse();
            assertThat(o.exitCode()).as(o.failureReason()).isEqualTo(7);
            assertThat(o.failureReason()).contains(env.name() + ": the in-guest JVM exited with 7",
                    env.name() + ": no result file came back");
            DockerClient docker = DockerClientFactory.instance().client();
            Map<String, String> label = Map.of("io.flushcheck.guest", env.name());
            assertThat(docker.listContainersCmd().withShowAll(true).withLabelFilter(label).exec())
                    .as("containers of %s", env.name()).isEmpty();
            assertThat(docker.listVolumesCmd().withFilter("label", List.of("io.flushcheck.guest=" + env.name()))
                    .exec().getVolumes()).as("volumes of %s", env.name()).isNullOrEmpty();
            try (Stream<Path> left = Files.list(hostDir)) {
                assertThat(left).as("bind directories under %s", hostDir).isEmpty();
            }
        }
    }
}

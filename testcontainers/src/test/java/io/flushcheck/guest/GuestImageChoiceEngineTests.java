package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.github.dockerjava.api.DockerClient;
import io.flushcheck.MissingTool;
import io.flushcheck.testing.SystemProperties;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import org.testcontainers.DockerClientFactory;

/** The guests' image chosen on the real engine, its Java read from the real image, and classes it cannot load refused. */
class GuestImageChoiceEngineTests {

    /** Runs in a guest: passes where the guest's JVM runs it. */
    static class InTheGuest {

        @Test
        void runsInTheGuest() {
            assertThat(System.getProperty(GuestMain.ENVIRONMENT_PROPERTY)).endsWith("/tmpfs");
        }
    }

    @Test
    void classesOfJava17RunInTheLocalBootstrapWithoutAPull() {
        GuestTesting.requireDockerAndBaseImage();
        List<String> progress = new CopyOnWriteArrayList<>();

        GuestImage g = GuestImageChoice.forTestClasses(List.of(InTheGuest.class.getName()), progress::add);

        assertThat(g.id()).isEqualTo("debian-bookworm-jre17");
        assertThat(g.base().why()).isEqualTo("the local bootstrap image is on the engine, and its guest's Java 17 loads "
                + "classes of Java 17");
        assertThat(g.imageName()).matches("flushcheck/guest-debian-bookworm-jre17:[0-9a-f]{12}");
        assertThat(progress).containsExactly("guest image " + g.imageName() + " FROM " + GuestImage.LOCAL_BASE_IMAGE
                + " (" + g.base().why() + ")");
    }

    @Test
    void theLocalGuestsJavaIsReadFromItsImageWithoutLeavingAContainer() {
        GuestTesting.requireDockerAndBaseImage();
        DockerClient docker = DockerClientFactory.instance().client();
        String image = GuestImage.DEBIAN_BOOKWORM_JRE17.build(m -> { });
        int before = javaReleaseContainers(docker);

        assertThat(ImageJavaRelease.of(docker, image)).isEqualTo(17);
        assertThat(javaReleaseContainers(docker)).isEqualTo(before);
    }

    @Test
    void aTestClassForJava21IsRefusedBeforeAContainerStartsNamingBothVersions(@TempDir Path dir) throws Exception {
        GuestTesting.requireDockerAndBaseImage();
        Path classes = NewerJavac.compile(dir, "Newer", "public class Newer {}", 21);
        List<String> progress = new CopyOnWriteArrayList<>();
        ClassLoader old = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, old)) {
            Thread.currentThread().setContextClassLoader(loader);
            // No pull, so that the local bootstrap is the choice whether a registry answers or not.
            GuestImage g = SystemProperties.with(GuestImageChoice.PULL_SECONDS_KEY, "0",
                    () -> GuestImageChoice.forTestClasses(List.of("Newer"), progress::add));
            GuestRequest request = new GuestRequest(List.of("Newer"), false, false, 8, List.of(), dir);

            assertThatThrownBy(() -> new GuestRunner(progress::add).run(GuestEnvironment.guest(g, MountKind.TMPFS), request))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("debian-bookworm-jre17/tmpfs: the test classes are Java 21 (class file 65, as Newer); the"
                            + " guest image's JRE is Java 17 (" + g.imageName() + " FROM "
                            + GuestImage.LOCAL_BASE_IMAGE + " (the local bootstrap image is on the engine, and"
                            + " eclipse-temurin:21-jre is not: flushcheck.guest.pull-seconds is 0)): set"
                            + " flushcheck.guest.baseImage to an image with Java 21 or later (such as"
                            + " eclipse-temurin:21-jre), or compile for 17");
        } finally {
            Thread.currentThread().setContextClassLoader(old);
        }
        assertThat(progress).noneMatch(m -> m.contains("starting a container"));
    }

    @Test
    void theKeysImageWithItsOwnJreIsBuiltFromAndRunsTheTests() {
        GuestTesting.requireDockerAndBaseImage();
        // An image with a JRE on its PATH that this engine has without a registry: the local guest itself.
        String withJre = GuestImage.DEBIAN_BOOKWORM_JRE17.build(m -> { });
        List<String> progress = new CopyOnWriteArrayList<>();
        GuestImage g = SystemProperties.with(GuestImage.BASE_IMAGE_KEY, withJre,
                () -> GuestImageChoice.forTestClasses(List.of(InTheGuest.class.getName()), progress::add));
        assertThat(g.dockerfileDir()).isEqualTo("from-image");
        assertThat(g.base()).isEqualTo(new GuestBase(withJre, "flushcheck.guest.baseImage names it"));

        GuestOutcome o = new GuestRunner(progress::add).run(GuestEnvironment.guest(g, MountKind.TMPFS),
                GuestRequest.tests(InTheGuest.class));

        assertThat(o.ok()).as(o.failureReason()).isTrue();
        assertThat(o.count(TestOutcome.Status.SUCCESSFUL)).isEqualTo(1);
        String id = withJre.replace('/', '-').replace(':', '-');
        assertThat(o.name()).isEqualTo(id + "/tmpfs");
        assertThat(g.imageName()).startsWith("flushcheck/guest-" + id + ":");
        assertThat(o.log()).startsWith("flushcheck: image " + g.imageName() + " FROM " + withJre
                + " (flushcheck.guest.baseImage names it), Java 17\n");
        assertThat(progress).anyMatch(m -> m.startsWith(o.name() + ": starting a container of image " + g.imageName()
                + " FROM " + withJre));
    }

    @Test
    void aPullThatCannotReachItsRegistryFailsFastOncePerJvm() {
        GuestTesting.requireDockerAndBaseImage();
        EngineImages engine = new EngineImages();
        String image = "registry.flushcheck.invalid/no-such-image:0"; // .invalid never resolves (RFC 6761)
        List<String> progress = new CopyOnWriteArrayList<>();

        String why = engine.pull(image, Duration.ofSeconds(60), progress::add);

        assertThat(why).startsWith("the pull failed after ").contains("registry.flushcheck.invalid")
                .doesNotContain("{\"message\"");
        assertThat(engine.has(image)).isFalse();
        assertThat(progress).first().asString().startsWith("pulling " + image + " (at most 60 s;");
        assertThat(engine.pull(image, Duration.ofSeconds(60), progress::add))
                .isEqualTo(why + " (an earlier attempt in this JVM)");
    }

    @Test
    void aGuestWithNoImageToStartFromIsNotAvailableHereSayingWhy() {
        GuestTesting.requireDockerAndBaseImage();
        GuestEnvironment env = GuestEnvironment.guest(GuestImage.unavailable("nothing on the engine"), MountKind.TMPFS);

        // Each mode set here: the build may run with either (.ci/run sets fail).
        assertThat(SystemProperties.with(MissingTool.KEY, "skip", () -> catchThrowable(env::requireAvailable)))
                .isInstanceOf(TestAbortedException.class)
                .hasMessage("debian-bookworm-jre17/tmpfs has no image to start FROM: nothing on the engine");
        assertThat(SystemProperties.with(MissingTool.KEY, "fail", () -> catchThrowable(env::requireAvailable)))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("nothing on the engine");
    }

    @Test
    void theEnginesWordsAreTakenOutOfItsJson() {
        assertThat(EngineImages.engineMessage("Status 500: {\"message\":\"Get \\\"https://registry-1.docker.io/v2/\\\":"
                + " dial tcp: lookup registry-1.docker.io: no such host\"}\n")).isEqualTo("Get \"https://registry-1.docker.io/v2/\":"
                + " dial tcp: lookup registry-1.docker.io: no such host");
        assertThat(EngineImages.engineMessage("connection refused")).isEqualTo("connection refused");
    }

    private static int javaReleaseContainers(DockerClient docker) {
        return docker.listContainersCmd().withShowAll(true).withLabelFilter(Map.of("io.flushcheck.guest", "java-release"))
                .exec().size();
    }
}

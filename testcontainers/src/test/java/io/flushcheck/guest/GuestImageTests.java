package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Building the guest image on a real engine: bounded, and never silent while it runs. */
class GuestImageTests {

    private static final GuestImage IMAGE = GuestImage.DEBIAN_BOOKWORM_JRE17;

    @Test
    void aBuildThatOutlastsItsLimitFailsWithWhatToDo() {
        GuestTesting.requireDockerAndBaseImage();
        IMAGE.build(m -> { }); // the real, cached build first, so that the runs below are cache hits
        List<String> progress = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> IMAGE.buildNow(progress::add, Duration.ofMillis(1), Duration.ofMillis(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("guest image " + IMAGE.imageName() + " is still building after ")
                .hasMessageContaining("docker build --network host --build-arg BASE_IMAGE=" + GuestImage.LOCAL_BASE_IMAGE
                        + " -t " + IMAGE.imageName() + " container-images/debian-bookworm-jre17");
        assertThat(progress).first().asString().startsWith("building image " + IMAGE.imageName());
    }

    @Test
    void everyEnvironmentSharesTheOneBuildOfItsImage() {
        GuestTesting.requireDockerAndBaseImage();
        IMAGE.build(m -> { });
        List<String> again = new CopyOnWriteArrayList<>();

        assertThat(IMAGE.build(again::add)).isEqualTo(IMAGE.imageName());
        assertThat(again).as("a second build of the same image in this JVM").isEmpty();
    }

    @Test
    void aRunningBuildReportsProgressUntilItIsReady() {
        GuestTesting.requireDockerAndBaseImage();
        IMAGE.build(m -> { });
        List<String> progress = new CopyOnWriteArrayList<>();

        // A cache hit still takes the engine some hundreds of milliseconds: long enough for a 20 ms ticker.
        String built = IMAGE.buildNow(progress::add, Duration.ofMinutes(5), Duration.ofMillis(20));

        assertThat(built).isEqualTo(IMAGE.imageName());
        assertThat(progress).anyMatch(m -> m.startsWith("still building image " + IMAGE.imageName() + " ("));
        assertThat(progress.get(progress.size() - 1)).startsWith("image " + IMAGE.imageName() + " ready in ");
    }
}

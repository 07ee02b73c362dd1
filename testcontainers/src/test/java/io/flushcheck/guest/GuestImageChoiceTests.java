package io.flushcheck.guest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flushcheck.testing.SystemProperties;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The order in which the guests' image is chosen, on a store of images that answers as told (a pure unit test of
 * the decision; GuestImageChoiceEngineTests asks the real engine).
 */
class GuestImageChoiceTests {

    private static final Duration LIMIT = Duration.ofSeconds(300);
    private static final String LOCAL = GuestImage.LOCAL_BASE_IMAGE;

    /** Has what it is given; a pull brings the images in {@code pullable}, and fails for the others. */
    private static final class Store implements ImageStore {
        final Set<String> images = new HashSet<>();
        final Set<String> pullable = new HashSet<>();
        final List<String> pulls = new ArrayList<>();

        Store with(String... i) {
            images.addAll(List.of(i));
            return this;
        }

        Store canPull(String... i) {
            pullable.addAll(List.of(i));
            return this;
        }

        @Override
        public boolean has(String image) {
            return images.contains(image);
        }

        @Override
        public String publicName(String image) {
            return image;
        }

        @Override
        public String pull(String image, Duration limit, Consumer<String> progress) {
            pulls.add(image);
            if (pullable.contains(image)) {
                images.add(image);
                return null;
            }
            return "the pull failed after 0.0 s: no such host";
        }
    }

    private static GuestImage choose(int needed, String override, Duration limit, Store store) {
        return GuestImageChoice.choose(needed, override, limit, store, m -> { });
    }

    @Test
    void theLocalBootstrapServesJava17ClassesWithoutAskingARegistry() {
        Store store = new Store().with(LOCAL).canPull("eclipse-temurin:17-jre");

        GuestImage g = choose(17, null, LIMIT, store);

        assertThat(g.id()).isEqualTo("debian-bookworm-jre17");
        assertThat(g.base().image()).isEqualTo(LOCAL);
        assertThat(g.base().why()).isEqualTo("the local bootstrap image is on the engine, and its guest's Java 17 loads"
                + " classes of Java 17");
        assertThat(store.pulls).isEmpty();
    }

    @Test
    void withoutTheLocalBootstrapTheTemurinImageOfTheReleaseIsPulled() {
        Store store = new Store().canPull("eclipse-temurin:17-jre");

        GuestImage g = choose(17, null, LIMIT, store);

        assertThat(g.id()).isEqualTo("temurin-17-jre");
        assertThat(g.imageName()).matches("flushcheck/guest-temurin-17-jre:[0-9a-f]{12}");
        assertThat(g.dockerfileDir()).isEqualTo("from-image");
        assertThat(g.base()).isEqualTo(new GuestBase("eclipse-temurin:17-jre", "pulled eclipse-temurin:17-jre (no local "
                + "bootstrap " + LOCAL + ")"));
    }

    @Test
    void classesNewerThanTheLocalJavaTakeTheNextLongTermTemurinOnTheEngineFirst() {
        Store store = new Store().with(LOCAL, "eclipse-temurin:21-jre");

        GuestImage g = choose(19, null, LIMIT, store);

        assertThat(g.base()).isEqualTo(new GuestBase("eclipse-temurin:21-jre", "eclipse-temurin:21-jre is on the engine"
                + " (the local bootstrap " + LOCAL + " has Java 17, the classes are Java 19)"));
        assertThat(store.pulls).isEmpty();
    }

    @Test
    void whenThePullFailsTheLocalBootstrapRunsAndSaysWhy() {
        Store store = new Store().with(LOCAL);

        GuestImage g = choose(21, null, LIMIT, store);

        assertThat(store.pulls).containsExactly("eclipse-temurin:21-jre");
        assertThat(g.id()).isEqualTo("debian-bookworm-jre17");
        assertThat(g.base().why()).isEqualTo("the local bootstrap image is on the engine, and eclipse-temurin:21-jre is"
                + " not: the pull failed after 0.0 s: no such host");
    }

    @Test
    void aPullLimitOfZeroNeverPulls() {
        Store store = new Store().with(LOCAL).canPull("eclipse-temurin:25-jre");

        GuestImage g = choose(25, null, Duration.ZERO, store);

        assertThat(store.pulls).isEmpty();
        assertThat(g.base().why()).endsWith("is not: flushcheck.guest.pull-seconds is 0");
    }

    @Test
    void withNeitherImageNoneIsFoundAndTheReasonSaysWhatToDo() {
        Store store = new Store();

        GuestImage g = choose(17, null, LIMIT, store);

        assertThat(g.base().found()).isFalse();
        assertThat(g.base().why()).contains("neither eclipse-temurin:17-jre nor the local bootstrap image " + LOCAL)
                .contains("the pull failed after 0.0 s: no such host").contains("container-images/prepare.sh")
                .contains("-Dflushcheck.guest.baseImage=IMAGE");
        assertThatThrownBy(() -> g.build(m -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no base image for flushcheck/guest-debian-bookworm-jre17:");
    }

    @Test
    void theKeyNamesTheBaseBeforeAnythingElseAndIsPulledWhenMissing() {
        Store store = new Store().with(LOCAL).canPull("registry.example.com:5000/Team/jre:21");

        GuestImage g = choose(17, " registry.example.com:5000/Team/jre:21 ", LIMIT, store);

        assertThat(g.id()).isEqualTo("registry.example.com-5000-team-jre-21");
        assertThat(g.dockerfileDir()).isEqualTo("from-image");
        assertThat(g.base()).isEqualTo(new GuestBase("registry.example.com:5000/Team/jre:21",
                "flushcheck.guest.baseImage names it, pulled"));
        assertThat(choose(17, "gone:1", LIMIT, store).base().why()).isEqualTo("flushcheck.guest.baseImage names it; it"
                + " is not on the engine, and not pulled: the pull failed after 0.0 s: no such host");
    }

    @Test
    void anImageIsNamedAfterItsDockerfileAndItsBaseSoThatAnotherOfEitherIsAnotherImage() {
        GuestImage a = GuestImage.fromImage("x", "eclipse-temurin:21-jre", "why");
        GuestImage sameButWhy = GuestImage.fromImage("x", "eclipse-temurin:21-jre", "another reason");
        GuestImage otherBase = GuestImage.fromImage("x", "eclipse-temurin:25-jre", "why");

        assertThat(a.imageName()).matches("flushcheck/guest-x:[0-9a-f]{12}").isEqualTo(sameButWhy.imageName())
                .isNotEqualTo(otherBase.imageName());
        assertThat(GuestImage.localBootstrap("why").imageName()).as("another Dockerfile")
                .isNotEqualTo(GuestImage.fromImage("debian-bookworm-jre17", GuestImage.LOCAL_BASE_IMAGE, "why").imageName());
    }

    @Test
    void theTemurinReleaseIsTheNextLongTermOne() {
        assertThat(GuestImageChoice.temurinRelease(8)).isEqualTo(17);
        assertThat(GuestImageChoice.temurinRelease(17)).isEqualTo(17);
        assertThat(GuestImageChoice.temurinRelease(18)).isEqualTo(21);
        assertThat(GuestImageChoice.temurinRelease(21)).isEqualTo(21);
        assertThat(GuestImageChoice.temurinRelease(22)).isEqualTo(25);
        assertThat(GuestImageChoice.temurinRelease(26)).isEqualTo(26);
    }

    @Test
    void anIdIsMadeOfTheImagesLettersAndDigits() {
        assertThat(GuestImageChoice.idOf("eclipse-temurin:21-jre")).isEqualTo("eclipse-temurin-21-jre");
        assertThat(GuestImageChoice.idOf("img@sha256:ABC")).isEqualTo("img-sha256-abc");
        assertThat(GuestImageChoice.idOf("::")).isEqualTo("image");
        assertThat(GuestImageChoice.idOf("a".repeat(150))).hasSize(100);
    }

    @Test
    void thePullLimitIsAWholeNumberOfSeconds() {
        String key = GuestImageChoice.PULL_SECONDS_KEY;
        assertThat(SystemProperties.with(key, " 20 ", GuestImageChoice::pullLimit)).isEqualTo(Duration.ofSeconds(20));
        assertThat(SystemProperties.with(key, "0", GuestImageChoice::pullLimit)).isEqualTo(Duration.ZERO);
        assertThat(SystemProperties.with(key, "", GuestImageChoice::pullLimit)).isEqualTo(Duration.ofSeconds(300));
        assertThat(SystemProperties.with(key, null, GuestImageChoice::pullLimit)).isEqualTo(Duration.ofSeconds(300));
        for (String bad : List.of("-1", "86401", "1.5", "soon")) {
            assertThatThrownBy(() -> SystemProperties.with(key, bad, GuestImageChoice::pullLimit))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("flushcheck.guest.pull-seconds is \"" + bad + "\": use a whole number of seconds from 0"
                            + " (never pull) to 86400");
        }
    }
}

package io.flushcheck.guest;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * Which image the container guests run in when a suite names none, and why, in this order:
 * <ol>
 *   <li>the image {@value GuestImage#BASE_IMAGE_KEY} names (pulled if the engine lacks it);</li>
 *   <li>the local bootstrap image {@value GuestImage#LOCAL_BASE_IMAGE} ({@code container-images/prepare.sh}), when
 *       the engine has it and its guest's Java 17 loads the classes: no registry is asked;</li>
 *   <li>{@code eclipse-temurin:<N>-jre}, N the classes' Java release rounded up to a long-term release (17, 21, 25),
 *       when the engine has it or a pull brings it within {@value #PULL_SECONDS_KEY} seconds;</li>
 *   <li>the local bootstrap image for classes newer than its Java, so that the run refuses them naming both
 *       versions ({@link ClassesRelease#refusal}).</li>
 * </ol>
 * With none of them, the environments are not available here, saying what was tried. The choice and its reason
 * are printed, and every guest run names its image and base.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class GuestImageChoice {

    /** The system property bounding the pull of a public image, in seconds; 0 never pulls. */
    public static final String PULL_SECONDS_KEY = "flushcheck.guest.pull-seconds";

    /** The default bound: a JRE image's first pull takes a minute or two on a slow line. */
    static final int DEFAULT_PULL_SECONDS = 300;

    /** Temurin's long-term releases, by which a public image is chosen. */
    private static final int[] LONG_TERM = {17, 21, 25};

    private GuestImageChoice() {
    }

    /**
     * The guest image for these test classes on the engine Testcontainers finds (which must answer), reported to
     * {@code progress} with its reason.
     *
     * @throws IllegalArgumentException when {@value #PULL_SECONDS_KEY} is not a number of seconds
     */
    public static GuestImage forTestClasses(List<String> testClasses, Consumer<String> progress) {
        ClassesRelease needed = ClassesRelease.of(testClasses, Classpath.current(), loader());
        GuestImage chosen = choose(needed.release(), System.getProperty(GuestImage.BASE_IMAGE_KEY), pullLimit(),
                new EngineImages(), progress);
        progress.accept("guest image " + chosen.describe());
        return chosen;
    }

    /** The choice for classes of Java {@code needed}, with {@code override} the key's value (null: unset). */
    static GuestImage choose(int needed, String override, Duration pullLimit, ImageStore store,
                             Consumer<String> progress) {
        if (override != null && !override.isBlank()) {
            String image = override.strip();
            String why = GuestImage.BASE_IMAGE_KEY + " names it";
            if (!store.has(image)) {
                String failed = pullLimit.isZero() ? PULL_SECONDS_KEY + " is 0" : store.pull(image, pullLimit, progress);
                why += failed == null ? ", pulled" : "; it is not on the engine, and not pulled: " + failed;
            }
            return GuestImage.fromImage(idOf(image), image, why);
        }
        String local = GuestImage.LOCAL_BASE_IMAGE;
        boolean hasLocal = store.has(local);
        if (hasLocal && GuestImage.LOCAL_JAVA_RELEASE >= needed) {
            return GuestImage.localBootstrap("the local bootstrap image is on the engine, and its guest's Java "
                    + GuestImage.LOCAL_JAVA_RELEASE + " loads classes of Java " + needed);
        }
        int release = temurinRelease(needed);
        String temurin = store.publicName(temurinImage(release));
        String notLocal = hasLocal ? "the local bootstrap " + local + " has Java " + GuestImage.LOCAL_JAVA_RELEASE
                + ", the classes are Java " + needed : "no local bootstrap " + local;
        String id = "temurin-" + release + "-jre";
        if (store.has(temurin)) {
            return GuestImage.fromImage(id, temurin, temurin + " is on the engine (" + notLocal + ")");
        }
        String failed = pullLimit.isZero() ? PULL_SECONDS_KEY + " is 0" : store.pull(temurin, pullLimit, progress);
        if (failed == null) {
            return GuestImage.fromImage(id, temurin, "pulled " + temurin + " (" + notLocal + ")");
        }
        if (hasLocal) {
            return GuestImage.localBootstrap("the local bootstrap image is on the engine, and " + temurin
                    + " is not: " + failed);
        }
        return GuestImage.unavailable("neither " + temurin + " nor the local bootstrap image " + local
                + " is on this Docker engine, and " + temurin + " cannot be pulled (" + failed + "): where no registry"
                + " answers, make " + local + " with container-images/prepare.sh as root; or name an image with a JRE"
                + " with -D" + GuestImage.BASE_IMAGE_KEY + "=IMAGE");
    }

    /** The long-term Temurin release at or above {@code needed}; beyond the last one known, {@code needed} itself. */
    static int temurinRelease(int needed) {
        for (int lts : LONG_TERM) {
            if (needed <= lts) {
                return lts;
            }
        }
        return needed;
    }

    /** The public Temurin JRE image of a release, {@code eclipse-temurin:21-jre}. */
    static String temurinImage(int release) {
        return "eclipse-temurin:" + release + "-jre";
    }

    /** An environment id for an image reference: {@code eclipse-temurin:21-jre} gives {@code eclipse-temurin-21-jre}. */
    static String idOf(String image) {
        String id = image.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-").replaceAll("^[-.]+|[-.]+$", "");
        if (id.length() > 100) {
            id = id.substring(0, 100).replaceAll("[-.]+$", "");
        }
        return id.isEmpty() ? "image" : id;
    }

    /**
     * {@value #PULL_SECONDS_KEY}: a whole number of seconds from 0 to 86400; unset or blank, {@value #DEFAULT_PULL_SECONDS}.
     *
     * @throws IllegalArgumentException for anything else, naming the key, the value and what is allowed
     */
    static Duration pullLimit() {
        String v = System.getProperty(PULL_SECONDS_KEY);
        if (v == null || v.isBlank()) {
            return Duration.ofSeconds(DEFAULT_PULL_SECONDS);
        }
        try {
            int s = Integer.parseInt(v.strip());
            if (s >= 0 && s <= 86_400) {
                return Duration.ofSeconds(s);
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(PULL_SECONDS_KEY + " is \"" + v + "\": use a whole number of seconds from 0"
                + " (never pull) to 86400");
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : GuestImageChoice.class.getClassLoader();
    }
}

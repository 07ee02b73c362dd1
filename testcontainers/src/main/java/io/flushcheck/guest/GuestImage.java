package io.flushcheck.guest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apiguardian.api.API;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * A guest image with a JRE, built from a Dockerfile in {@code container-images/<dockerfileDir>/} (carried in the
 * jar under {@code io/flushcheck/guest/images/}) through Testcontainers' {@link ImageFromDockerfile}, FROM its
 * {@link GuestBase}, which must be on the engine. The image is named after its Dockerfile and base
 * ({@link #imageName()}) and never deleted, so the Docker layer cache turns every build after the first into a cache
 * hit of about a second. The build records the JRE's
 * Java release in the image ({@link ImageJavaRelease}). Which image the guests run in unless a suite names one is
 * {@link GuestImageChoice}'s choice.
 *
 * @param id            the first part of environment names ({@code debian-bookworm-jre17/overlay})
 * @param dockerfileDir the directory under container-images/ of its Dockerfile
 * @param base          the image it starts FROM, and why that one
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record GuestImage(String id, String dockerfileDir, GuestBase base) {

    /** The system property naming an image with a JRE (or a Debian image, whose JRE apt installs) to start FROM. */
    public static final String BASE_IMAGE_KEY = "flushcheck.guest.baseImage";

    /** The base made by {@code container-images/prepare.sh}: Debian bookworm, pulled or bootstrapped locally. */
    public static final String LOCAL_BASE_IMAGE = "flushcheck/debian-bookworm-base:1";

    /** The Java release of the JRE that {@link #localBootstrap} installs (Debian bookworm's OpenJDK). */
    static final int LOCAL_JAVA_RELEASE = 17;

    /** Debian bookworm ({@link #LOCAL_BASE_IMAGE}) with {@code openjdk-17-jre-headless}. */
    public static final GuestImage DEBIAN_BOOKWORM_JRE17 = localBootstrap("named by the suite");

    public GuestImage {
        if (base == null) {
            throw new IllegalArgumentException("a guest image needs a base");
        }
    }

    /** The local bootstrap's guest: {@link #LOCAL_BASE_IMAGE} with Debian's OpenJDK 17 from apt. */
    public static GuestImage localBootstrap(String why) {
        return new GuestImage("debian-bookworm-jre17", "debian-bookworm-jre17", new GuestBase(LOCAL_BASE_IMAGE, why));
    }

    /** No image to build here, for {@code why}: its environments are not available ({@link GuestEnvironment}). */
    static GuestImage unavailable(String why) {
        GuestImage local = DEBIAN_BOOKWORM_JRE17;
        return new GuestImage(local.id(), local.dockerfileDir(), GuestBase.none(why));
    }

    /**
     * A guest FROM an image that has a JRE (as {@code eclipse-temurin:21-jre}), or a Debian or Ubuntu image without one,
     * into which apt installs the distribution's default JRE.
     *
     * @param id the first part of environment names, letters, digits, dots and hyphens
     */
    public static GuestImage fromImage(String id, String baseImage, String why) {
        if (!id.matches("[a-z0-9][a-z0-9.-]{0,99}")) {
            throw new IllegalArgumentException("guest image id " + id + ": use 1 to 100 lower-case letters, digits, dots"
                    + " and hyphens");
        }
        return new GuestImage(id, "from-image", new GuestBase(baseImage, why));
    }

    /**
     * The local tag, {@code flushcheck/guest-<id>:<tag>}, the tag made of the Dockerfile and the base's name: another
     * version of the Dockerfile or another base is another image, so that two versions of flushcheck on one engine
     * never take each other's image, and the same ones share it.
     */
    public String imageName() {
        return TAGS.computeIfAbsent(id + "\0" + dockerfileResource() + "\0" + base.image(), k -> "flushcheck/guest-" + id
                + ":" + tag());
    }

    /** Twelve hex digits of the SHA-256 of the Dockerfile's bytes and the base's name. */
    private String tag() {
        try (InputStream in = GuestImage.class.getClassLoader().getResourceAsStream(dockerfileResource())) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            if (in != null) {
                sha.update(in.readAllBytes());
            }
            sha.update(String.valueOf(base.image()).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest()).substring(0, 12);
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot read " + dockerfileResource() + ": " + e, e);
        }
    }

    /** The image, its base and why, for messages: {@code flushcheck/guest-<id>:<tag> FROM base (why)}. */
    public String describe() {
        return imageName() + " FROM " + base;
    }

    /**
     * One build per image and JVM, shared by every environment that needs it: a build that is slow or
     * hung is waited for once, not started again for each mount. A failed one is dropped, so the next
     * caller tries again. Between JVMs, {@link BuildLock} lets one build at a time run on the machine.
     */
    private static final Map<String, Build> BUILDS = new ConcurrentHashMap<>();

    /** {@link #imageName()} by Dockerfile and base. */
    private static final Map<String, String> TAGS = new ConcurrentHashMap<>();

    /** A build running (or done) on its own daemon thread. */
    private record Build(FutureTask<String> task, long startNanos) {
    }

    /** The Dockerfile as a classpath resource. */
    public String dockerfileResource() {
        return "io/flushcheck/guest/images/" + dockerfileDir + "/Dockerfile";
    }

    /** How long a build may take: the first one installs a JRE with apt, about 4 minutes here. */
    static final Duration BUILD_TIMEOUT = Duration.ofMinutes(20);

    /** How often a running build says it is still running. */
    static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);

    /**
     * Builds the image once per JVM (a layer-cache hit when nothing changed) and returns its name.
     *
     * @throws IllegalStateException when the build fails, or has run for 20 minutes, with Docker's reason
     */
    public String build(Consumer<String> progress) {
        if (!base.found()) {
            throw new IllegalStateException("no base image for " + imageName() + ": " + base.why());
        }
        String key = imageName();
        Build b = BUILDS.computeIfAbsent(key, k -> start(progress));
        try {
            return await(b, progress, BUILD_TIMEOUT, PROGRESS_EVERY);
        } catch (IllegalStateException e) {
            if (b.task().isDone()) {
                BUILDS.remove(key, b); // it failed: let the next caller try again
            }
            throw e; // still running past the limit: later callers fail at once with the same reason
        }
    }

    /** One build of its own, bounded by {@code timeout}, with a progress line every {@code progressEvery}. */
    String buildNow(Consumer<String> progress, Duration timeout, Duration progressEvery) {
        return await(start(progress), progress, timeout, progressEvery);
    }

    private Build start(Consumer<String> progress) {
        progress.accept("building image " + imageName() + " from " + dockerfileResource() + " FROM " + base);
        if (GuestImage.class.getClassLoader().getResource(dockerfileResource()) == null) {
            throw new IllegalStateException("no Dockerfile at " + dockerfileResource() + " on the classpath");
        }
        if (!base.found()) {
            throw new IllegalStateException("no base image for " + imageName() + ": " + base.why());
        }
        ImageFromDockerfile image = new ImageFromDockerfile(imageName(), false)
                .withFileFromClasspath("Dockerfile", dockerfileResource())
                .withBuildArg("BASE_IMAGE", base.image())
                // Host networking: apt inside the build needs no bridge/NAT setup on the engine.
                .withBuildImageCmdModifier(cmd -> cmd.withNetworkMode("host").withPull(false));
        // Our own thread rather than the future's get(timeout): that one starts a new wait per call, and
        // the build's progress is only in Testcontainers' log, which the command does not show.
        FutureTask<String> task = new FutureTask<>(() -> BuildLock.holding(imageName(), image::get));
        Thread builder = new Thread(task, "flushcheck-image-build");
        builder.setDaemon(true);
        builder.start();
        return new Build(task, System.nanoTime());
    }

    private String await(Build b, Consumer<String> progress, Duration timeout, Duration progressEvery) {
        long deadline = b.startNanos() + timeout.toNanos();
        boolean running = !b.task().isDone();
        try {
            while (true) {
                long wait = Math.min(progressEvery.toNanos(), deadline - System.nanoTime());
                try {
                    String built = b.task().get(Math.max(wait, 0), TimeUnit.NANOSECONDS);
                    if (running) {
                        progress.accept(String.format("image %s ready in %.1f s", built, seconds(b)));
                    }
                    return built;
                } catch (TimeoutException e) {
                    if (System.nanoTime() >= deadline) {
                        throw new IllegalStateException(String.format("guest image %s is still building after %.0f s "
                                + "(limit %d s); the engine may go on with it: see `docker ps` and `docker image ls`, "
                                + "or build it by hand with `docker build --network host --build-arg BASE_IMAGE=%s -t %s "
                                + "container-images/%s`", imageName(), seconds(b), timeout.toSeconds(), base.image(),
                                imageName(), dockerfileDir));
                    }
                    progress.accept(String.format("still building image %s (%.0f s)", imageName(), seconds(b)));
                }
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("cannot build guest image " + imageName() + " FROM " + base + (cause
                    instanceof RuntimeException ? " (is the base image on the engine? name another with -D" + BASE_IMAGE_KEY
                    + "=IMAGE, or make " + LOCAL_BASE_IMAGE + " with container-images/prepare.sh): " : ": ")
                    + rootMessage(cause), cause);
        } catch (InterruptedException e) {
            // The build goes on for the other callers; this one stops waiting.
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for guest image " + imageName(), e);
        }
    }

    private static double seconds(Build b) {
        return (System.nanoTime() - b.startNanos()) / 1e9;
    }

    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c == t ? String.valueOf(t.getMessage()) : t.getMessage() + " (" + c + ")";
    }
}

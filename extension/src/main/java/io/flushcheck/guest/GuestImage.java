package io.flushcheck.guest;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * A guest image with a JRE, built from a Dockerfile in {@code container-images/<id>/} (carried in the
 * jar under {@code io/flushcheck/guest/images/}) through Testcontainers' {@link ImageFromDockerfile}.
 * The image keeps its stable name and is never deleted, so the Docker layer cache turns every build after
 * the first into a cache hit of about a second. The base image it starts FROM comes from
 * {@code container-images/prepare.sh}.
 *
 * @param id        the directory under container-images/ and the first part of environment names
 * @param imageName the stable local tag
 */
public record GuestImage(String id, String imageName) {

    /** Debian bookworm (debootstrap'ed or pulled) with {@code openjdk-17-jre-headless}. */
    public static final GuestImage DEBIAN_BOOKWORM_JRE17 =
            new GuestImage("debian-bookworm-jre17", "flushcheck/guest-debian-bookworm-jre17:1");

    private static final Map<String, String> BUILT = new ConcurrentHashMap<>();

    public static List<GuestImage> defaults() {
        return List.of(DEBIAN_BOOKWORM_JRE17);
    }

    /** The Dockerfile as a classpath resource. */
    public String dockerfileResource() {
        return "io/flushcheck/guest/images/" + id + "/Dockerfile";
    }

    /**
     * Builds the image once per JVM (a layer-cache hit when nothing changed) and returns its name.
     *
     * @throws IllegalStateException when the build fails, with Docker's reason
     */
    public String build(Consumer<String> progress) {
        return BUILT.computeIfAbsent(imageName, name -> {
            progress.accept("building image " + name + " from " + dockerfileResource());
            long t0 = System.nanoTime();
            if (GuestImage.class.getClassLoader().getResource(dockerfileResource()) == null) {
                throw new IllegalStateException("no Dockerfile at " + dockerfileResource() + " on the classpath");
            }
            try {
                String built = new ImageFromDockerfile(name, false)
                        .withFileFromClasspath("Dockerfile", dockerfileResource())
                        // Host networking: apt inside the build needs no bridge/NAT setup on the engine.
                        .withBuildImageCmdModifier(cmd -> cmd.withNetworkMode("host").withPull(false))
                        .get();
                progress.accept(String.format("image %s ready in %.1f s", built, (System.nanoTime() - t0) / 1e9));
                return built;
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot build guest image " + name + " (does the base image "
                        + "flushcheck/debian-bookworm-base:1 exist? run container-images/prepare.sh): "
                        + rootMessage(e), e);
            } catch (Exception e) {
                throw new IllegalStateException("cannot build guest image " + name + ": " + rootMessage(e), e);
            }
        });
    }

    static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c == t ? String.valueOf(t.getMessage()) : t.getMessage() + " (" + c + ")";
    }
}

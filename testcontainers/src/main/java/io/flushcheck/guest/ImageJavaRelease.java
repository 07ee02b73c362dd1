package io.flushcheck.guest;

import com.github.dockerjava.api.DockerClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The Java feature release of a built guest image's JRE, which its Dockerfile's last step writes into
 * {@value #FILE} ({@code java.specification.version}): read from a container created from the image, never started,
 * and removed, so that a guest that cannot load the test classes is refused before any container starts.
 */
final class ImageJavaRelease {

    /** Where the guest Dockerfiles record the release. */
    static final String FILE = "/flushcheck/java-release";

    /** The most of the file read: a release is a few digits. */
    private static final int MAX_BYTES = 64;

    /** By image ID, so that a rebuilt tag is read again. */
    private static final Map<String, Integer> READ = new ConcurrentHashMap<>();

    private ImageJavaRelease() {
    }

    /**
     * The release of {@code image}'s JRE.
     *
     * @throws IllegalStateException when the image has no readable {@value #FILE}, naming the image and the reason
     */
    static int of(DockerClient docker, String image) {
        String id = docker.inspectImageCmd(image).exec().getId();
        Integer known = READ.get(id);
        if (known != null) {
            return known;
        }
        String container = docker.createContainerCmd(image).withLabels(Map.of("io.flushcheck.guest", "java-release"))
                .exec().getId();
        int release;
        try (InputStream in = docker.copyArchiveFromContainerCmd(container, FILE).exec();
             TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
            TarArchiveEntry e = tar.getNextEntry();
            if (e == null || !e.isFile()) {
                throw new IllegalStateException("the guest image " + image + " has no file " + FILE);
            }
            release = parse(new String(tar.readNBytes(MAX_BYTES), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("cannot read the Java release of the guest image " + image + " from " + FILE
                    + " (its Dockerfile's last step writes it): " + GuestImage.rootMessage(e), e);
        } finally {
            try {
                docker.removeContainerCmd(container).withForce(true).withRemoveVolumes(true).exec();
            } catch (RuntimeException ignored) {
                // labelled io.flushcheck.guest: container-images/README.md says how to remove what is left
            }
        }
        READ.put(id, release);
        return release;
    }

    /**
     * A {@code java.specification.version}: {@code 17}, {@code 21}, or {@code 1.8} for Java 8.
     *
     * @throws IllegalArgumentException for anything else, quoting it
     */
    static int parse(String text) {
        String t = text.strip();
        String digits = t.startsWith("1.") ? t.substring(2) : t;
        if (!digits.matches("[0-9]{1,4}") || Integer.parseInt(digits) < 1) {
            throw new IllegalArgumentException("not a Java release: \"" + t.replaceAll("[^\\x20-\\x7E]", "?") + "\"");
        }
        return Integer.parseInt(digits);
    }
}

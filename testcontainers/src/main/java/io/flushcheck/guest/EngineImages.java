package io.flushcheck.guest;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.ImageNameSubstitutor;

/**
 * The engine Testcontainers finds, as an {@link ImageStore}. A pull is one attempt, bounded by its limit, with a
 * progress line every 30 seconds; Testcontainers' own pull retries for two minutes, which a machine without a
 * registry would pay on every run. A failed pull is not tried again in this JVM.
 */
final class EngineImages implements ImageStore {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);

    private static final Pattern ENGINE_MESSAGE = Pattern.compile("(?s)Status \\d+: \\{\"message\":\"(.*)\"\\}\\s*");

    /** Why each failed pull failed, by image: one attempt per JVM. */
    private static final Map<String, String> FAILED = new ConcurrentHashMap<>();

    private final DockerClient docker;

    EngineImages() {
        this(DockerClientFactory.instance().client());
    }

    EngineImages(DockerClient docker) {
        this.docker = docker;
    }

    @Override
    public boolean has(String image) {
        try {
            docker.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** Through Testcontainers' image name substitution, so that its {@code hub.image.name.prefix} applies. */
    @Override
    public String publicName(String image) {
        return ImageNameSubstitutor.instance().apply(DockerImageName.parse(image)).asCanonicalNameString();
    }

    @Override
    public String pull(String image, Duration limit, Consumer<String> progress) {
        String failed = FAILED.get(image);
        if (failed != null) {
            return failed + " (an earlier attempt in this JVM)";
        }
        long t0 = System.nanoTime();
        long deadline = t0 + limit.toNanos();
        String why;
        progress.accept("pulling " + image + " (at most " + limit.toSeconds() + " s; " + GuestImageChoice.PULL_SECONDS_KEY
                + "=0 never pulls)");
        DockerImageName name = DockerImageName.parse(image);
        try (PullImageResultCallback pull = docker.pullImageCmd(name.getUnversionedPart()).withTag(name.getVersionPart())
                .exec(new PullImageResultCallback())) {
            while (true) {
                long wait = Math.min(PROGRESS_EVERY.toNanos(), deadline - System.nanoTime());
                if (pull.awaitCompletion(Math.max(wait, 0), TimeUnit.NANOSECONDS)) {
                    why = has(image) ? null : "the pull ended without the image";
                    break;
                }
                if (System.nanoTime() >= deadline) {
                    why = "the pull did not end within " + limit.toSeconds() + " s";
                    break;
                }
                progress.accept(String.format("still pulling %s (%.0f s)", image, seconds(t0)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while pulling";
        } catch (Exception e) { // the callback's close() declares IOException; docker-java throws its runtime ones
            why = engineMessage(GuestImage.rootMessage(e));
        }
        if (why == null) {
            progress.accept(String.format("pulled %s in %.1f s", image, seconds(t0)));
            return null;
        }
        why = String.format("the pull failed after %.1f s: %s", seconds(t0), why);
        FAILED.put(image, why);
        return why;
    }

    /** The engine's own words from docker-java's {@code Status 500: {"message":"..."}}; anything else as it is. */
    static String engineMessage(String m) {
        Matcher json = ENGINE_MESSAGE.matcher(m);
        return json.matches() ? json.group(1).replace("\\\"", "\"").strip() : m;
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}

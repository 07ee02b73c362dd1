package io.flushcheck.guest;

import java.io.IOException;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * Where a run happens: the host (a child JVM) or a container of a guest image with its data directory on a
 * mount.
 *
 * @param image null for the host
 * @param mount null for the host
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record GuestEnvironment(GuestImage image, MountKind mount) implements GuestPlace {

    public static final String HOST = "host";

    public static GuestEnvironment host() {
        return new GuestEnvironment(null, null);
    }

    public static GuestEnvironment guest(GuestImage image, MountKind mount) {
        if (image == null || mount == null) {
            throw new IllegalArgumentException("a guest needs an image and a mount");
        }
        return new GuestEnvironment(image, mount);
    }

    @Override
    public boolean isHost() {
        return image == null;
    }

    /** {@code host} or {@code <image id>/<mount id>}, e.g. {@code debian-bookworm-jre17/tmpfs}. */
    @Override
    public String name() {
        return isHost() ? HOST : image.id() + "/" + mount.id();
    }

    /** The host needs nothing; a container needs a Docker engine and an image to start FROM ({@link GuestImageChoice}). */
    @Override
    public void requireAvailable() {
        if (isHost()) {
            return;
        }
        if (!GuestRunner.dockerAvailable()) {
            GuestPlace.notHere(name() + " needs a Docker engine and none answers (install and start one, or set "
                    + "DOCKER_HOST; where the machine is itself a container set TESTCONTAINERS_RYUK_DISABLED=true "
                    + "TESTCONTAINERS_HOST_OVERRIDE=localhost)");
        }
        if (!image.base().found()) {
            GuestPlace.notHere(name() + " has no image to start FROM: " + image.base().why());
        }
    }

    @Override
    public RunOutput run(GuestRequest request, Consumer<String> progress) throws IOException {
        return isHost() ? HostRun.run(request, progress) : ContainerRun.run(this, request, progress);
    }

    @Override
    public String toString() {
        return name();
    }
}

package io.flushcheck.guest;

import org.apiguardian.api.API;

/**
 * Where a run happens: the host (a child JVM) or a guest image with its data directory on a mount.
 *
 * @param image null for the host
 * @param mount null for the host
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record GuestEnvironment(GuestImage image, MountKind mount) {

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

    public boolean isHost() {
        return image == null;
    }

    /** {@code host} or {@code <image id>/<mount id>}, e.g. {@code debian-bookworm-jre17/tmpfs}. */
    public String name() {
        return isHost() ? HOST : image.id() + "/" + mount.id();
    }

    @Override
    public String toString() {
        return name();
    }
}

package io.flushcheck.guest;

import java.util.Locale;
import org.apiguardian.api.API;

/** Where a guest's data directory lives. The id appears in environment names and in JSON. */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public enum MountKind {
    /** The container's own root filesystem (overlay), at {@code /var/tmp/flushcheck-data}. */
    OVERLAY,
    /** A bind mount of a fresh host directory (on the Docker host's disk: a local engine only). */
    BIND,
    /** A fresh named volume, removed afterwards. */
    VOLUME,
    /** A tmpfs mount: memory, the case every durability check must catch. */
    TMPFS;

    /** The directory the guest's data lives in inside the container. */
    public String containerPath() {
        return this == OVERLAY ? "/var/tmp/flushcheck-data" : "/data";
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MountKind parse(String id) {
        for (MountKind k : values()) {
            if (k.id().equals(id.trim().toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown mount kind '" + id + "': use overlay, bind, volume or tmpfs");
    }
}

package io.flushcheck.powercut.internal.kernel;

import java.io.IOException;
import java.nio.file.Path;
import org.apiguardian.api.API;

/** Mounts what survived a power cut, or a crash state, where a test reads it. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SurvivorMount {

    private SurvivorMount() {
    }

    /**
     * Mounts the survivor's image on {@code device}, of {@code fsType}, at {@code survivor}. btrfs refuses a clone
     * of a filesystem whose teardown is still under way (the original's, unmounted in the background, or a crash
     * state's before it: its sysfs entry is there, EEXIST) and mounts it once that is done, so a refusal for that
     * reason is tried again for a while. {@code flags}: {@link Mounts#DATA} or {@link Mounts#FOREIGN_DATA}, what is
     * mounted being data to look at.
     */
    public static void mount(String device, Path survivor, String fsType, long flags) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                Mounts.mount(device, survivor, fsType, Filesystems.mountOptions(fsType), flags);
                return;
            } catch (IOException e) {
                if (!fsType.equals("btrfs") || !String.valueOf(e.getMessage()).contains("File exists") || attempt == 100) {
                    throw e;
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while mounting the survivor", e);
            }
        }
    }
}

package io.flushcheck.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/**
 * Which mount serves a path, as a key that two directories share exactly when one probe speaks for both. A path
 * into another mount namespace ({@code /proc/PID/root/INNER}, {@link KernelPath}) is on a mount of PID's table,
 * named with that namespace's identity: looked up in this namespace's table it would land on /proc, so every
 * such path would share one key and a container's tmpfs could take a disk directory's probe.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class MountIdentity {

    private MountIdentity() {
    }

    /**
     * The key of the mount serving {@code resolved} (a path as {@link KernelPath#resolve} gives it): {@code mount ID}
     * in this namespace, {@code mnt:[INODE] mount ID} in another.
     *
     * @throws IOException when PID's namespace or mounts cannot be read (PID gone, or not ours to read)
     */
    public static String of(String resolved) throws IOException {
        long pid = KernelPath.namespacePid(resolved);
        if (pid <= 0) {
            return "mount " + MountTable.live().mountOf(resolved).mountId();
        }
        // Mount ids are unique across namespaces, but the namespace is named too: it is what the id is read in.
        String namespace = Files.readSymbolicLink(Path.of("/proc", String.valueOf(pid), "ns", "mnt")).toString();
        return namespace + " mount " + KernelPath.mountTable(resolved).mountOf(KernelPath.inner(resolved)).mountId();
    }
}
